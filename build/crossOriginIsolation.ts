/**
 * Response headers that make a page cross-origin isolated (`crossOriginIsolated === true`), which
 * browsers require before they give it SharedArrayBuffer and so the threaded wasm backend.
 * `require-corp` (the form every browser with isolation knows, Safari included) is safe because the
 * app loads nothing from other origins.
 * Sent with the other host headers (build/hostHeaders.ts); `public/coi-serviceworker.js` adds them
 * where a host cannot.
 */
export const crossOriginIsolation: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
