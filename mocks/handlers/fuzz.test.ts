/**
 * Property test of the emulator's robustness (ref §4, §11.1): whatever method, path, sub-resources, headers
 * and body a signed or anonymous client combines, the answer is never a 500 and always QingStor-shaped —
 * Server and 16-hex x-qs-request-id on every response, and a JSON {code, message, request_id, url} envelope
 * whose request_id equals the header on every non-HEAD error.
 */
import { array, assert, asyncProperty, boolean, constantFrom, option, record, tuple } from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUB_RESOURCES } from '../../src/api/signing.ts';
import type { Emulator } from '../emulator.ts';
import { buildRequest, createBucket, putText, sendRequest, testEmulator } from './test-utils.ts';

let em: Emulator;

beforeAll(async () => {
  em = await testEmulator({ maxObjectSize: 1024 });
  await createBucket(em, 'fuzz-bucket');
  await putText(em, 'fuzz-bucket', 'obj', 'object body');
});

const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH'] as const;
const SEGMENTS = ['fuzz-bucket', 'obj', 'no-such-bucket', '', '%E4', '%2F', '中文', 'a b', '..x', 'k'.repeat(1024), '%ED%A0%80', '+', '%00'];
const QUERY_NAMES = [...SUB_RESOURCES, 'prefix', 'delimiter', 'marker', 'limit', 'offset', 'key_marker', 'access_key_id', 'expires', 'signature', 'foo'];
const QUERY_VALUES = ['', '0', '1', '-1', 'abc', '99999999999999999999', '%E4', 'x'.repeat(40), '10001'];
const HEADER_NAMES = [
  'range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'content-md5', 'x-qs-copy-source',
  'x-qs-move-source', 'x-qs-fetch-source', 'x-qs-metadata-directive', 'x-qs-storage-class', 'x-qs-meta-k', 'x-qs-meta-bad key',
  'origin', 'access-control-request-method', 'access-control-request-headers', 'etag', 'content-type', 'cache-control', 'location',
  'x-qs-copy-source-if-match', 'x-qs-copy-range', 'referer',
] as const;
const HEADER_VALUES = ['', 'bytes=0-0', 'bytes=-0', 'bytes=5-2', '"x"', 'W/"y"', '*', '/fuzz-bucket/obj', '/fuzz-bucket/%E4', 'REPLACE', 'copy',
  'STANDARD_IA', 'GLACIER', 'Sun, 06 Nov 1994 08:49:37 GMT', '0', 'AAAA', 'http://evil.example', 'x'.repeat(300), 'pek3b'];
const BODIES = [undefined, '', '{', '{}', 'null', '[]', '{"acl":[]}', '{"cors_rules":[]}', '{"statement":[]}', '{"objects":[{"key":"obj"}]}',
  '{"object_parts":[{"part_number":0}]}', 'x'.repeat(2000)];

/** 'ok' for a JSON {code, message, request_id, url} envelope whose request_id is the header's, else what is wrong. */
function envelopeProblem(response: Response, text: string, requestId: string): string {
  if (response.headers.get('content-type') !== 'application/json') return `content-type ${response.headers.get('content-type') ?? 'none'}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  if (typeof body !== 'object' || body === null) return 'not an object';
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,message,request_id,url') return `fields ${keys}`;
  if (!('code' in body) || typeof body.code !== 'string' || !/^[a-z_]+$/.test(body.code)) return 'bad code';
  if (!('request_id' in body) || body.request_id !== requestId) return 'request_id differs from the header';
  return 'ok';
}

const requestArb = record({
  method: constantFrom(...METHODS),
  host: constantFrom('https://pek3a.qingstor.com', 'https://qingstor.com', 'https://fuzz-bucket.pek3a.qingstor.com', 'https://pek3b.qingstor.com'),
  segments: array(constantFrom(...SEGMENTS), { maxLength: 3 }),
  query: array(tuple(constantFrom(...QUERY_NAMES), option(constantFrom(...QUERY_VALUES), { nil: undefined })), { maxLength: 3 }),
  headers: array(tuple(constantFrom(...HEADER_NAMES), constantFrom(...HEADER_VALUES)), { maxLength: 4 }),
  body: constantFrom(...BODIES),
  anonymous: boolean(),
});

describe('fuzzed requests (ref §4, §11.1)', () => {
  it('never answer 500 and always answer in QingStor shape', async () => {
    await assert(
      asyncProperty(requestArb, async (r) => {
        const path = `/${r.segments.join('/')}`;
        const query = r.query.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&');
        const headers: Record<string, string> = {};
        for (const [name, value] of r.headers) {
          if (name.includes(' ')) continue; // not a valid header name; fetch would refuse it client-side
          headers[name] = value;
        }
        const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const request = await buildRequest(r.method, `${r.host}${path}${query ? `?${query}` : ''}`, {
          as: r.anonymous ? 'anonymous' : undefined,
          headers,
          ...(hasBody && r.body !== undefined ? { body: new TextEncoder().encode(r.body) } : {}),
        });
        const response = await sendRequest(em, request);
        const requestId = response.headers.get('x-qs-request-id') ?? '';
        const text = await response.text();
        const isError = response.status >= 400 && r.method !== 'HEAD';
        expect({
          status: response.status === 500 ? 'internal_error' : 'fine',
          server: response.headers.get('server'),
          requestId: /^[0-9a-f]{16}$/.test(requestId),
          headBody: r.method === 'HEAD' ? text : '',
          envelope: isError ? envelopeProblem(response, text, requestId) : 'none',
        }).toEqual({ status: 'fine', server: 'QingStor', requestId: true, headBody: '', envelope: isError ? 'ok' : 'none' });
      }),
      { numRuns: 400, seed: 20260411 },
    );
  });
});
