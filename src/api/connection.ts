import { z } from 'zod';
import type { Credentials } from './signing.ts';

/**
 * Where and how the console talks to QingStor. Validated with zod because it comes from user input,
 * sessionStorage or the URL (never trust its shape).
 *
 * - `endpoint`: scheme + host (+ port) of the service, e.g. `https://qingstor.com`, or
 *   `http://127.0.0.1:9000` for the standalone emulator. A path in the endpoint (e.g.
 *   `http://localhost:8080/qingstor`) is treated as a proxy prefix: it is added to every request
 *   URL but is NOT part of the signed resource, because the server behind the proxy sees the path
 *   without it (ref §2.3: the resource is the path the QingStor server receives).
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
        url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'Endpoint must be an http(s) URL without query, fragment or user info, e.g. https://qingstor.com');

export const connectionSchema = z.object({
  endpoint: endpointSchema,
  zoneInHost: z.boolean(),
  style: z.enum(['path', 'virtual-host']),
  credentials: credentialsSchema.optional(),
  defaultZone: zoneIdSchema,
});

export type Connection = z.infer<typeof connectionSchema>;
export type AddressingStyle = Connection['style'];

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
  accessKeyId: 'QSDEMOACCESSKEYID0001',
  secretAccessKey: 'qsdemoSecretAccessKey0000000000000000000',
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
  const endpoint = new URL(connection.endpoint);
  const base = `${endpoint.protocol}//${endpoint.host}${endpoint.pathname.replace(/\/+$/, '')}`;
  return `${who}@${base}|${connection.zoneInHost ? 'zone-host' : 'fixed-host'}|${connection.style}|${connection.defaultZone}`;
}

/** True when the connection signs its requests (as opposed to anonymous access). */
export function isAuthenticated(connection: Connection): boolean {
  return connection.credentials !== undefined;
}
