import { z } from 'zod';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from './protocol/demo.ts';
import type { Credentials } from './signing.ts';

/**
 * Where and how the console talks to QingStor. Validated with zod because it comes from user input,
 * sessionStorage or the URL (never trust its shape).
 *
 * - `endpoint`: scheme + host (+ port) of the service, e.g. `https://qingstor.com`, or
 *   `http://127.0.0.1:9000` for the standalone emulator. No path.
 * - `proxy`: base of the same-origin proxy of `npm run serve` (e.g. `/_qs` or
 *   `http://localhost:8080/_qs`). Requests are signed for the DIRECT URL and then sent as
 *   `<proxy>/<direct host><raw path>?<raw query>` (src/serve/proxy.ts wire contract): the server
 *   behind the proxy receives the direct path, which is what the signature covers (ref §2.3).
 * - `zoneInHost`: true ⇒ zone requests go to `<zone>.<endpoint host>` (ref §1.1). False for
 *   IP/localhost endpoints (the emulator, a same-origin proxy): the host never changes and the
 *   server picks the zone itself.
 * - `style`: path (`/<bucket>/<key>`, works everywhere; the default of every SDK, ref §1.2) or
 *   virtual-host (`<bucket>.<zone>.<host>`). Virtual-host is refused for IP hosts (falls back to path).
 * - `credentials`: absent = anonymous requests (public buckets, ref §10).
 * - `defaultZone`: zone used when an operation names none.
 */

export const credentialsSchema = z.object({
  accessKeyId: z.string().min(1, 'Access key id is required'),
  secretAccessKey: z.string().min(1, 'Secret access key is required'),
});

export const zoneIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Zone ids are lower-case letters, digits and "-" (e.g. pek3a)');

export const endpointSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '' &&
        url.username === '' && url.password === '' && url.pathname === '/';
    } catch {
      return false;
    }
  }, 'Endpoint must be an http(s) origin without path, query, fragment or user info, e.g. https://qingstor.com');

/** Absolute http(s) URL or an absolute path (resolved against the page origin), e.g. `/_qs`. */
export const proxyBaseSchema = z
  .string()
  .trim()
  .refine((value) => {
    if (value.startsWith('/') && !value.startsWith('//')) return true;
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
    } catch {
      return false;
    }
  }, 'Proxy must be an absolute path such as /_qs or an http(s) URL');

export const connectionSchema = z.object({
  endpoint: endpointSchema,
  zoneInHost: z.boolean(),
  style: z.enum(['path', 'virtual-host']),
  credentials: credentialsSchema.optional(),
  defaultZone: zoneIdSchema,
  proxy: proxyBaseSchema.optional(),
  /**
   * Largest object one copy takes, in bytes, when the server's differs from QingStor's 5 GB (an emulator
   * started with a lowered `--copy-limit`). Bigger objects are copied in parts (Upload Part - Copy).
   */
  copyLimit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});

export type Connection = z.infer<typeof connectionSchema>;

// Compile-time guarantee that our zod shape stays assignable to the signing contract's Credentials.
const credentialsMatchContract: (c: z.infer<typeof credentialsSchema>) => Credentials = (c) => c;
void credentialsMatchContract;

/** Parses unknown input into a Connection; throws a ZodError describing every invalid field. */
export function parseConnection(input: unknown): Connection {
  return connectionSchema.parse(input);
}

/**
 * The simulated backend the console shows by default. `.invalid` never resolves (RFC 2606), so these
 * requests can only ever be answered by the in-browser emulator. The keys below are public demo
 * values that only the emulator's seeded demo user accepts; they grant nothing anywhere else.
 */
export const DEMO_ENDPOINT = 'https://qingstor.invalid';
export const DEMO_ZONE = 'pek3a';
export const DEMO_CREDENTIALS: Credentials = Object.freeze({
  accessKeyId: DEMO_ACCESS_KEY_ID,
  secretAccessKey: DEMO_SECRET_ACCESS_KEY,
});

export const DEMO_CONNECTION: Connection = Object.freeze({
  endpoint: DEMO_ENDPOINT,
  zoneInHost: true,
  style: 'path',
  credentials: DEMO_CREDENTIALS,
  defaultZone: DEMO_ZONE,
});

/**
 * A stable, secret-free identity for a connection, used as the second element of every query key so
 * that switching endpoint, style or user never shows cached data of another connection.
 * The secret is deliberately excluded (query keys end up in devtools).
 */
export function connectionId(connection: Connection): string {
  const who = connection.credentials ? connection.credentials.accessKeyId : 'anonymous';
  const endpoint = new URL(connection.endpoint).origin;
  const via = connection.proxy ? `|via ${connection.proxy.replace(/\/+$/, '')}` : '';
  return `${who}@${endpoint}|${connection.zoneInHost ? 'zone-host' : 'fixed-host'}|${connection.style}|${connection.defaultZone}${via}`;
}
