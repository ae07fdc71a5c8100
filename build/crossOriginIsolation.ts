/**
 * Response headers that make a page cross-origin isolated (`crossOriginIsolated === true`), which
 * browsers require before they give it SharedArrayBuffer and so the threaded wasm backend.
 * `require-corp` (the form every browser with isolation knows, Safari included) is safe because the
 * app loads nothing from other origins.
 * Served by `npm run dev` and `npm run preview`; `public/_headers` says the same to static hosts
 * that read that file, and `public/coi-serviceworker.js` adds them where a host cannot.
 */
export const crossOriginIsolation: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
