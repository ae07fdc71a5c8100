import type { Plugin } from 'vite';

/**
 * The Content-Security-Policy of the built site, as a `<meta http-equiv>` tag (it works on any static
 * host, no server headers needed). Scripts, styles, workers, wasm and data come from the site itself
 * only: no inline script, no eval or `new Function` (`'wasm-unsafe-eval'` allows compiling wasm and
 * nothing else), no third-party requests. `blob:` serves the video export's preview and snapshots;
 * `data:` images come from the SVG snapshots. `frame-ancestors` needs a real header: build/hostHeaders.ts
 * (reporting is left to the host).
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Adds the CSP meta tag to every HTML page of `vite build` (not to the dev server, whose hot reload runs inline script). */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'swarm-playground:csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' }],
  };
}
