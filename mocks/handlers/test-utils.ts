/**
 * Test helpers for the handler suites: an emulator with known users, and a request function that signs
 * with the console's own signer (src/api/signing.ts) and runs the msw handlers in-process via getResponse.
 */
import { createHash } from 'node:crypto';
import { getResponse } from 'msw';
import { signRequest } from '../../src/api/signing.ts';
import type { MockUser } from '../auth/signature.ts';
import { createEmulator, type CreateEmulatorOptions, type Emulator } from '../emulator.ts';

// Test-only key pairs; they exist nowhere but in these tests.
export const OWNER: MockUser = { id: 'usr-owner001', name: 'owner', accessKeyId: 'TESTOWNERACCESSKEY01', secretAccessKey: 'ownerSecretAccessKey000000000000000000000' };
export const READER: MockUser = { id: 'usr-reader01', name: 'reader', accessKeyId: 'TESTREADERACCESSKEY1', secretAccessKey: 'readerSecretAccessKey00000000000000000000' };
export const WRITER: MockUser = { id: 'usr-writer01', name: 'writer', accessKeyId: 'TESTWRITERACCESSKEY1', secretAccessKey: 'writerSecretAccessKey00000000000000000000' };
export const STRANGER: MockUser = { id: 'usr-strange1', name: 'stranger', accessKeyId: 'TESTSTRANGERACCESSK1', secretAccessKey: 'strangerSecretAccessKey000000000000000000' };
export const TEST_USERS: readonly MockUser[] = [OWNER, READER, WRITER, STRANGER];

export const DOMAIN = 'qingstor.com';
export const ZONE_URL = 'https://pek3a.qingstor.com';

export function testEmulator(options: CreateEmulatorOptions = {}): Promise<Emulator> {
  return createEmulator({ seed: 'empty', users: TEST_USERS, domains: [DOMAIN, 'qingstor.local'], minPartSize: 5, ...options });
}

export type Body = string | Uint8Array | FormData;

export interface SendOptions {
  headers?: Record<string, string>;
  body?: Body;
  /** A user signs with the header signature; 'anonymous' sends no credentials. Default OWNER. */
  as?: MockUser | 'anonymous';
  /** Sign at this time (default now). */
  signedAt?: Date;
}

/** Bucket label of a virtual-host URL under DOMAIN, as the signer needs it (ref §2.3). */
export function bucketInHostOf(url: URL): string | undefined {
  for (const domain of [DOMAIN, 'qingstor.local']) {
    if (!url.hostname.endsWith(`.${domain}`)) continue;
    const labels = url.hostname.slice(0, -domain.length - 1).split('.');
    if (labels.length === 2) return labels[0];
  }
  return undefined;
}

export async function buildRequest(method: string, url: string, options: SendOptions = {}): Promise<Request> {
  const target = new URL(url.startsWith('http') ? url : `${ZONE_URL}${url}`);
  const body = options.body === undefined ? null : options.body instanceof Uint8Array ? new Blob([new Uint8Array(options.body)]) : options.body;
  const request = new Request(target, { method, headers: options.headers, body });
  const as = options.as ?? OWNER;
  if (as !== 'anonymous') {
    const bucketInHost = bucketInHostOf(target);
    await signRequest({
      method,
      url: target,
      headers: request.headers,
      credentials: { accessKeyId: as.accessKeyId, secretAccessKey: as.secretAccessKey },
      ...(bucketInHost !== undefined ? { bucketInHost } : {}),
      ...(options.signedAt ? { now: options.signedAt } : {}),
    });
  }
  return request;
}

/** Sends one request through the emulator's msw handlers; fails the test if no handler answered. */
export async function send(emulator: Emulator, method: string, url: string, options: SendOptions = {}): Promise<Response> {
  const request = await buildRequest(method, url, options);
  return sendRequest(emulator, request);
}

export async function sendRequest(emulator: Emulator, request: Request): Promise<Response> {
  const response = await getResponse(emulator.handlers, request);
  if (!response) throw new Error(`no handler answered ${request.method} ${request.url}`);
  return response;
}

export function md5Base64(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('base64');
}

export function md5Hex(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}

/** Asserts nothing itself; returns status and parsed error body for expect(). */
export async function errorOf(response: Response): Promise<{ status: number; code: string | undefined; requestIdMatches: boolean }> {
  const text = await response.text();
  let code: string | undefined;
  let requestIdMatches = false;
  if (text !== '') {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && 'code' in json && typeof json.code === 'string') code = json.code;
    if (typeof json === 'object' && json !== null && 'request_id' in json) {
      requestIdMatches = json.request_id === response.headers.get('x-qs-request-id');
    }
  }
  return { status: response.status, code, requestIdMatches };
}

/** Creates a bucket as OWNER in pek3a (path style). */
export async function createBucket(emulator: Emulator, name: string, zone = 'pek3a', as: MockUser = OWNER): Promise<void> {
  const r = await send(emulator, 'PUT', `https://${zone}.${DOMAIN}/${name}`, { as });
  if (r.status !== 201) throw new Error(`creating ${name} failed with ${r.status}: ${await r.text()}`);
}

export async function putText(emulator: Emulator, bucket: string, key: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return send(emulator, 'PUT', `/${bucket}/${encodeKeyPath(key)}`, { body: new TextEncoder().encode(body), headers });
}

/** Path-segment encoding like the console's (ref §1.3 recommendation). */
export function encodeKeyPath(key: string): string {
  return key
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

export async function jsonOf(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}
