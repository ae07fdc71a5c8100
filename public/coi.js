/*
 * Makes the page cross-origin isolated where the host does not send the headers for it: registers
 * coi-serviceworker.js (beside this file) and reloads once, when it has taken over, so that the
 * page comes back through it with the headers. Does nothing where the page is isolated already,
 * where there are no service workers (or no secure context), and never reloads twice in a row: if
 * the reload did not isolate the page, the app runs single-threaded and its badge says why.
 */
(() => {
  if (window.crossOriginIsolated || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  const KEY = 'coi-serviceworker-reloaded';
  if (sessionStorage.getItem(KEY)) {
    sessionStorage.removeItem(KEY);
    return;
  }
  const script = document.currentScript;
  const url = new URL('coi-serviceworker.js', script ? script.src : location.href);
  navigator.serviceWorker.register(url).then(
    (registration) => {
      const reload = () => {
        sessionStorage.setItem(KEY, '1');
        location.reload();
      };
      // Served through the worker and still not isolated: this browser will not isolate the page.
      if (navigator.serviceWorker.controller) return;
      // Active but bypassed (a hard reload): an ordinary reload goes through it.
      if (registration.active) reload();
      else navigator.serviceWorker.addEventListener('controllerchange', reload, { once: true });
    },
    (err) => console.warn('Cross-origin isolation: the service worker could not be registered:', err),
  );
})();
