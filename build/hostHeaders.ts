import { crossOriginIsolation } from './crossOriginIsolation.ts';

/**
 * Response headers a host sends with every file besides cross-origin isolation:
 * - `X-Content-Type-Options: nosniff`: a file is run or styled only as the type it is served as;
 * - `Referrer-Policy: same-origin`: no address of the app (its settings are in the hash, which is
 *   never sent, but a query string such as `?threads=` is) goes to another site;
 * - `Content-Security-Policy: frame-ancestors *`: any site may frame the app, which embed mode
 *   (`#embed`) is for: a course page shows a live run. The rest of the policy is the built pages'
 *   `<meta>` tag (build/csp.ts); `frame-ancestors` works only as a header. Cross-origin isolation
 *   does not stand in the way: COOP is ignored in a frame, and COEP limits what the app loads, not
 *   who frames it (a framed app is not isolated, so it trains single-threaded, and its badge says why).
 * Served by `npm run dev` and `npm run preview`; `public/_headers` and the README's nginx lines say
 * the same to hosts (build/hostHeaders.test.ts keeps them in step).
 */
export const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy': 'frame-ancestors *',
};

/** Every header the site's files are served with. */
export const hostHeaders: Record<string, string> = { ...crossOriginIsolation, ...securityHeaders };
