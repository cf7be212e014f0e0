/**
 * One way for the metadata and object-action journeys to set up data and verify results through the API,
 * in both console modes:
 * - demo: the page's msw worker is the backend, so requests are signed in Node by the console's own api
 *   code and sent FROM the page (the worker answers them);
 * - endpoint: the standalone emulator over real HTTP; each test gets its own bucket whose CORS rule
 *   allows the console's origin and exposes every header (`*`), so the browser can read all
 *   `x-qs-meta-*` (ref §9.9).
 */
import type { Page } from '@playwright/test';
import { createClient, type QsClient, type SendInput } from '../src/api/client.ts';
import { DEMO_CONNECTION } from '../src/api/connection.ts';
import { putBucket } from '../src/api/buckets/operations.ts';
import { putBucketCors } from '../src/api/cors/operations.ts';
import { metadataFromHeaders, metadataToHeaders } from '../src/api/metadata/header-mapping.ts';
import type { ObjectMetadata } from '../src/api/metadata/types.ts';
import { expect } from './fixtures.ts';
import { connect, uniqueBucketName, type EmulatorHandle } from './support/emulator.ts';

export type Mode = 'demo' | 'endpoint';
export const MODES: readonly Mode[] = ['demo', 'endpoint'];

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

export interface Backend {
  mode: Mode;
  zone: string;
  bucket: string;
  /** Opens a console path (e.g. '/buckets/pek3a/b?object=k'); the first call sets the console up. */
  open(path: string): Promise<void>;
  /** A raw signed request; any status is returned, not thrown. */
  send(input: SendInput & { body?: string }): Promise<RawAnswer>;
  put(key: string, metadata: ObjectMetadata, body?: string): Promise<void>;
  /** Metadata as a raw signed HEAD reads it, or null for 404. */
  head(key: string): Promise<ObjectMetadata | null>;
  /** Another client's metadata change: copy onto itself with REPLACE. */
  replace(key: string, metadata: ObjectMetadata): Promise<void>;
  remove(key: string): Promise<void>;
  /** `/buckets/<zone>/<bucket>` plus a query. */
  path(query?: string): string;
}

function headersOf(prepared: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  prepared.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function common(send: Backend['send'], zone: string, bucket: string) {
  return {
    async put(key: string, metadata: ObjectMetadata, body = `body of ${key}`) {
      const answer = await send({ operation: 'PutObject', method: 'PUT', zone, bucket, key, headers: metadataToHeaders(metadata), body });
      expect(answer.status).toBe(201);
    },
    async head(key: string) {
      const answer = await send({ operation: 'HeadObject', method: 'HEAD', zone, bucket, key });
      if (answer.status === 404) return null;
      expect(answer.status).toBe(200);
      return metadataFromHeaders(new Headers(answer.headers));
    },
    async replace(key: string, metadata: ObjectMetadata) {
      const answer = await send({
        operation: 'CopyObject',
        method: 'PUT',
        zone,
        bucket,
        key,
        headers: { ...metadataToHeaders(metadata), 'x-qs-copy-source': `/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`, 'x-qs-metadata-directive': 'REPLACE' },
      });
      expect(answer.status).toBe(201);
    },
    async remove(key: string) {
      const answer = await send({ operation: 'DeleteObject', method: 'DELETE', zone, bucket, key });
      expect(answer.status).toBe(204);
    },
    path: (query?: string) => `/buckets/${zone}/${bucket}${query ? `?${query}` : ''}`,
  };
}

export async function demoBackend(page: Page): Promise<Backend> {
  const client = createClient(DEMO_CONNECTION);
  const zone = 'pek3a';
  const bucket = 'demo-documents';
  // The worker must be active before the page can send requests to the demo backend.
  await page.goto('/');
  await expect(page.getByText('Demo data — simulated backend')).toBeVisible();
  const send: Backend['send'] = async (input) => {
    const prepared = await client.prepare(input);
    return page.evaluate(
      async ({ url, method, headers, body }) => {
        const response = await fetch(url, { method, headers, body: body ?? null });
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          out[name] = value;
        });
        return { status: response.status, headers: out };
      },
      { url: prepared.url.href, method: prepared.method, headers: headersOf(prepared.headers), body: input.body },
    );
  };
  // The demo store lives in the page (and is saved in IndexedDB): navigation stays in the app (the router
  // follows history changes), so no reload has to wait for the demo backend to start again.
  const open = async (path: string) => {
    await page.evaluate((target) => {
      history.pushState(null, '', target);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  };
  return { mode: 'demo', zone, bucket, send, open, ...common(send, zone, bucket) };
}

export async function endpointBackend(page: Page, emulator: EmulatorHandle, api: QsClient, pageOrigin: string): Promise<Backend> {
  const zone = 'pek3a';
  const bucket = uniqueBucketName('meta');
  await putBucket(api, { zone, bucket });
  await putBucketCors(api, { zone, bucket }, {
    cors_rules: [{ allowed_origin: pageOrigin, allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'], max_age_seconds: 600 }],
  });
  const send: Backend['send'] = async (input) => {
    const prepared = await api.prepare(input);
    const response = await fetch(prepared.url, { method: prepared.method, headers: prepared.headers, body: input.body ?? null });
    await response.arrayBuffer();
    return { status: response.status, headers: headersOf(response.headers) };
  };
  let connected = false;
  const open = async (path: string) => {
    if (!connected) {
      await page.goto('/connect');
      // Remembered in this tab, so later page.goto() deep links keep the session.
      await connect(page, { endpoint: emulator.url, zones: 'pek3a', remember: true });
      await expect(page.getByRole('heading', { level: 1, name: 'Buckets' })).toBeVisible();
      connected = true;
    }
    await page.goto(path);
  };
  return { mode: 'endpoint', zone, bucket, send, open, ...common(send, zone, bucket) };
}
