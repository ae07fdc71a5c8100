/*
 * Cross-origin isolation for hosts that cannot send headers (GitHub Pages, a plain file server).
 * Registered by coi.js. It answers this site's own requests with the same responses plus
 * Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy, so that the page is
 * crossOriginIsolated and the wasm backend may use threads. Other origins' requests pass
 * untouched (the app loads none). Nothing is cached: every request still goes to the network.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  // A request the browser may only answer from its cache cannot be fetched again here.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.status === 0 || response.type === 'opaqueredirect') return response;
      const headers = new Headers(response.headers);
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
      headers.set('Cross-Origin-Resource-Policy', 'same-origin');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }),
  );
});
