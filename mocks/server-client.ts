/**
 * A minimal node:http client for tests and benchmarks of the standalone emulator: sends the
 * request-target byte for byte (fetch would normalise it and cannot set Host) and signs with the console's
 * own signer (src/api/signing.ts), so what is tested is exactly what goes over the wire.
 */
import http from 'node:http';
import { signRequest, type Credentials } from '../src/api/signing.ts';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  port: number;
  method: string;
  /** Request-target as sent: origin-form `/bucket/key?acl` or absolute-form `http://host/key`. */
  target: string;
  /** Host header; default `127.0.0.1:<port>`. */
  host?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | (() => AsyncIterable<Uint8Array>);
  agent?: http.Agent | false;
}

export function rawHttp(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: r.host ?? `127.0.0.1:${r.port}`, ...r.headers };
    if (r.body instanceof Uint8Array) headers['content-length'] = String(r.body.byteLength);
    const req = http.request(
      { host: '127.0.0.1', port: r.port, method: r.method, path: r.target, headers, agent: r.agent ?? false, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = r.body;
    if (typeof body === 'function') {
      void (async () => {
        for await (const chunk of body()) {
          if (!req.write(chunk)) await new Promise((done) => req.once('drain', done));
        }
        req.end();
      })().catch(reject);
    } else {
      req.end(body);
    }
  });
}

export interface SignInput {
  method: string;
  /** Host the request addresses (decides the resource prefix for virtual hosts, ref §2.3). */
  host: string;
  /** Raw path + query exactly as it will be sent. */
  pathAndQuery: string;
  headers?: Record<string, string>;
  bucketInHost?: string;
  credentials: Credentials;
  now?: Date;
}

/** Returns the headers to send: the given ones plus x-qs-date and authorization. */
export async function signedHeaders(i: SignInput): Promise<Record<string, string>> {
  const headers = new Headers(i.headers);
  await signRequest({
    method: i.method,
    url: new URL(`http://${i.host}${i.pathAndQuery}`),
    headers,
    credentials: i.credentials,
    ...(i.bucketInHost !== undefined ? { bucketInHost: i.bucketInHost } : {}),
    ...(i.now ? { now: i.now } : {}),
  });
  return Object.fromEntries(headers);
}
