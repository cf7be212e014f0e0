/**
 * Playwright fixtures for journeys against the standalone QingStor emulator over real HTTP
 * (endpoint mode with real CORS and preflights).
 *
 * - `emulator` (worker-scoped): `startEmulatorServer` on an ephemeral port, configured by the worker
 *   option `emulatorOptions` (seed, users, strictCors, ...; a file changes it with
 *   `test.use({ emulatorOptions: {...} })`, which gives it its own worker). In front of it sits a small
 *   recording relay, so tests can assert what actually reached the server (preflights, Origin, Host);
 *   the relay forwards method, path and headers unchanged, including `Host` for virtual-host names.
 * - `page` fails the test on page errors, dialogs (hostile keys must never execute) and console errors,
 *   except the browser's own network lines; CORS block reports are tolerated only when the test sets
 *   `expectCorsBlocks: true`.
 * - `api`: a signed client in Node (the console's own api code) for setting up data, acting like any
 *   other tool (the SDK, qsctl) would.
 *
 * Buckets are global on one emulator that a worker's tests share: tests that create buckets take unique
 * names from `uniqueBucketName`.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';
import { createClient, type QsClient } from '../../src/api/client.ts';
import type { Connection } from '../../src/api/connection.ts';
import { DEMO_USER } from '../../mocks/seed.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, startEmulatorServer, type EmulatorServerOptions, type RunningEmulatorServer, type ServerUser } from '../../mocks/server.ts';

export { expect };

/** A second user (no buckets of its own; READ on demo-documents with the demo seed). */
export const OTHER_USER: ServerUser = {
  id: 'usr-other0002',
  name: 'other',
  accessKeyId: 'QSOTHERACCESSKEYID002',
  secretAccessKey: 'otherSecretAccessKey00000000000000000002',
};

export const DEMO_USER_CREDENTIALS = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY } as const;

/** What the relay saw: one entry per HTTP request that reached the emulator. */
export interface RecordedRequest {
  method: string;
  /** Request target as sent (raw path + query). */
  url: string;
  host: string;
  origin: string | undefined;
  /** `Access-Control-Request-Method` of a preflight. */
  preflightMethod: string | undefined;
  status: number;
  /** The request's headers as received (names lower-case; repeated headers joined with ", "). */
  headers: Readonly<Record<string, string>>;
  /** When the request reached the relay (epoch ms). */
  at: number;
}

export interface EmulatorHandle {
  /** Base URL of the recording relay, e.g. http://127.0.0.1:41234 (use it as the endpoint). */
  url: string;
  port: number;
  /** The emulator itself (its store, users, zones). */
  server: RunningEmulatorServer;
  /** Requests seen so far, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Forget what was recorded (call at the start of a test that asserts on requests). */
  clearRequests(): void;
}

export type EmulatorFixtureOptions = Omit<EmulatorServerOptions, 'port' | 'host'>;

async function startRelay(target: RunningEmulatorServer): Promise<{ handle: EmulatorHandle; close(): Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const requests: RecordedRequest[] = [];
  const relay = http.createServer((req, res) => {
    const at = Date.now();
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const upstream = http.request(
      { host: target.host, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          host: header('host') ?? '',
          origin: header('origin'),
          preflightMethod: header('access-control-request-method'),
          status: answer.statusCode ?? 0,
          headers: Object.fromEntries(Object.keys(req.headers).map((name) => [name, header(name) ?? ''])),
          at,
        });
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('relay: not listening on a TCP port');
  const handle: EmulatorHandle = {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    server: target,
    get requests() {
      return requests;
    },
    clearRequests: () => {
      requests.length = 0;
    },
  };
  return {
    handle,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        relay.close(() => resolve());
        relay.closeAllConnections();
      }),
  };
}

/** Starts an emulator (ephemeral port) behind a recording relay; for scripts and fixtures alike. */
export async function startRecordedEmulator(options: EmulatorFixtureOptions = {}): Promise<{ handle: EmulatorHandle; close(): Promise<void> }> {
  const server = await startEmulatorServer({ ...options, port: 0, host: '127.0.0.1' });
  try {
    const relay = await startRelay(server);
    return {
      handle: relay.handle,
      close: async () => {
        await relay.close();
        await server.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Path-style connection to the emulator (IP host: the zone never goes into the host, ref §1.2). */
export function emulatorConnection(emulator: Pick<EmulatorHandle, 'url'>, credentials = DEMO_USER_CREDENTIALS, defaultZone = 'pek3a'): Connection {
  return { endpoint: emulator.url, zoneInHost: false, style: 'path', defaultZone, credentials: { ...credentials } };
}

/** Lower-case, 6–63 chars, unique per call: buckets are global on a shared emulator. */
export function uniqueBucketName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`.slice(0, 63);
}

interface WorkerFixtures {
  emulatorOptions: EmulatorFixtureOptions;
  emulator: EmulatorHandle;
}

interface TestFixtures {
  expectCorsBlocks: boolean;
  api: QsClient;
  /** Origin the console is served from (baseURL): what CORS rules must allow. */
  pageOrigin: string;
}

/** Console lines that accompany an expected failed request rather than a defect. */
function isNetworkNoise(text: string, corsAllowed: boolean): boolean {
  if (text.startsWith('Failed to load resource')) return true;
  return corsAllowed && (text.includes('has been blocked by CORS policy') || text.includes('net::ERR_FAILED'));
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  emulatorOptions: [{ seed: 'demo', users: [DEMO_USER, OTHER_USER] }, { scope: 'worker', option: true }],
  emulator: [
    async ({ emulatorOptions }, use) => {
      const running = await startRecordedEmulator(emulatorOptions);
      await use(running.handle);
      await running.close();
    },
    { scope: 'worker' },
  ],
  expectCorsBlocks: [false, { option: true }],
  page: async ({ page, expectCorsBlocks }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !isNetworkNoise(message.text(), expectCorsBlocks)) problems.push(`console.error: ${message.text()}`);
    });
    page.on('dialog', (dialog) => {
      problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
      void dialog.dismiss();
    });
    await use(page);
    expect(problems, 'page errors, console errors or dialogs during the test').toEqual([]);
  },
  pageOrigin: async ({ baseURL }, use) => {
    await use(new URL(baseURL ?? 'http://127.0.0.1:4317').origin);
  },
  api: async ({ emulator }, use) => {
    await use(createClient(emulatorConnection(emulator)));
  },
});

export interface ConnectFormInput {
  endpoint: string;
  zones?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Leave the "zone in host" checkbox as the form suggests when undefined. */
  zoneInHost?: boolean;
  style?: 'path' | 'virtual-host';
  bucket?: string;
  proxy?: string;
  remember?: boolean;
}

/** Opens the Connect form's "Advanced" section (anonymous access, bucket, proxy, zones, addressing) unless it is open. */
export async function openAdvanced(page: Page): Promise<void> {
  const advanced = page.locator('details.connect__advanced');
  if (!(await advanced.evaluate((details: HTMLDetailsElement) => details.open))) await advanced.locator('summary').click();
}

/** Fills the Connect form (English labels) and submits it. The page must show /connect. */
export async function fillConnectForm(page: Page, input: ConnectFormInput): Promise<void> {
  await page.getByLabel('Endpoint URL').fill(input.endpoint);
  await openAdvanced(page);
  if (input.proxy !== undefined) await page.getByLabel('Same-origin proxy (optional)').fill(input.proxy);
  await page.getByLabel('Zones').fill(input.zones ?? 'pek3a, sh1a');
  if (input.zoneInHost !== undefined) await page.getByLabel('Zone in the host name (pek3a.qingstor.com)').setChecked(input.zoneInHost);
  if (input.style === 'virtual-host') await page.getByLabel('Virtual-host style (bucket in the host name)').check();
  await page.getByLabel('Access key ID').fill(input.accessKeyId ?? DEMO_ACCESS_KEY_ID);
  await page.getByLabel('Secret access key').fill(input.secretAccessKey ?? DEMO_SECRET_ACCESS_KEY);
  if (input.bucket !== undefined) await page.getByLabel('Bucket', { exact: true }).fill(input.bucket);
  if (input.remember) await page.getByLabel('Remember in this tab').check();
  await page.getByRole('button', { name: 'Check and connect' }).click();
}

/** Connects with good credentials and opens the console on the bucket list (or the named bucket). */
export async function connect(page: Page, input: ConnectFormInput): Promise<void> {
  await fillConnectForm(page, input);
  // A successful check goes straight into the console.
  await expect(page).not.toHaveURL(/\/connect(\?|$)/, { timeout: 15_000 });
}

/** Fetches `url` from the page: `status <n>` when the page could read the answer, `TypeError` when not (CORS). */
export async function fetchFromPage(page: Page, url: string): Promise<string> {
  return page.evaluate(async (u) => {
    try {
      const response = await fetch(u);
      return `status ${response.status}`;
    } catch (error) {
      return error instanceof TypeError ? 'TypeError' : String(error);
    }
  }, url);
}
