/**
 * The request header the console's API client adds to every call it sends through the same-origin proxy
 * of `npm run serve` (src/serve/proxy.ts forwards nothing without it). A navigation, `<img>`, `<iframe>`,
 * `<object>` or form post cannot set a header, so content reached that way is never served on the
 * console's origin. Not an `x-qs-*` name: it is not signed, and the proxy drops it before forwarding.
 */
export const PROXY_MARKER_HEADER = 'x-qsc-proxy';
export const PROXY_MARKER_VALUE = '1';
