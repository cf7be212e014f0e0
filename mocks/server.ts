/**
 * The standalone QingStor emulator over real HTTP:
 *
 *   npm run serve:mock -- --port 9000 --host 127.0.0.1 --domain qingstor.local --seed demo|empty --users users.json
 *
 * Same handlers and store as the browser demo and the tests, behind node:http (see server-adapter.ts for
 * how each request becomes the absolute URL the handlers expect). Addressing (ref §1.1):
 *   - path style on any host: http://127.0.0.1:9000/<bucket>/<key> (zone = --zone, default pek3a);
 *   - `Host: <zone>.<domain>` path style and `Host: <bucket>.<zone>.<domain>` virtual-host style, with or
 *     without the port;
 *   - absolute-form proxy requests (`GET http://<bucket>.<zone>.<domain>/<key> HTTP/1.1`), so a client
 *     whose HTTP proxy is this server can keep real-looking endpoint URLs.
 * `startEmulatorServer()` is the same thing for tests and scripts.
 */
import http from 'node:http';
import { createEmulator, DEMO_USER } from './emulator.ts';
import { computedStringToSign, DEFAULT_ZONES, handleEmulatorRequest, resolveOptions } from './handlers/index.ts';
import { streamingFormReader } from './http/form-stream.ts';
import { DiskPersistence } from './store/disk.ts';
import { createRequestListener, mswResponder, type Responder } from './server-adapter.ts';
import { formatAccessJson, formatAccessLine, type AccessLogEntry } from './server-log.ts';
import { connectRefusal } from './server-response.ts';
import {
  DEFAULT_DOMAIN,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_ZONE,
  DEMO_SECRET_ACCESS_KEY,
  parseCli,
  resolveUsers,
  USAGE,
  type SeedName,
  type ServerUser,
  type UsersSource,
} from './server-options.ts';
import { guardConnections, type ConnectionLimits } from './server-guard.ts';
import type { Store } from './store/index.ts';

export { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY, parseUsersFile, type ServerUser } from './server-options.ts';

export interface EmulatorServerOptions {
  /** TCP port; 0 picks a free one. Default 9000. */
  port?: number;
  /** Listen address. Default 127.0.0.1. */
  host?: string;
  /** QingStor domains served (ref §1.1). Default ['qingstor.local']. */
  domains?: readonly string[];
  /** Initial data. Default 'demo'. */
  seed?: SeedName;
  /** Zone of path-style requests to hosts outside the domains. Default 'pek3a'. */
  defaultZone?: string;
  /** Accepted users; the first owns the seeded buckets. Default: the demo user. */
  users?: readonly ServerUser[];
  /** Refuse requests whose Origin no bucket CORS rule allows (ref §9.9). Default false. */
  strictCors?: boolean;
  /** ListObjects limit clamp (ref §12). Default: the emulator's (100). */
  listLimitMax?: number;
  /** Minimum multipart part size at Complete. Default: the emulator's for the seed. */
  minPartSize?: number;
  /** Largest source of one PUT-copy / range of one part copy (entity_too_large above). Default: the emulator's (5 GiB). */
  copyLimit?: number;
  /**
   * Keep buckets, objects, uploads and bodies in this directory (created if missing) instead of memory:
   * what was acknowledged survives a restart or a crash. A new directory gets the seed; an existing one is
   * loaded as it is. Default: memory only.
   */
  dataDir?: string;
  /** With dataDir: how long a body file no record points at any more is kept (open downloads). Default 60 s. */
  releaseDelayMs?: number;
  /** Largest body of one PUT, part, append or PostObject (entity_too_large above it). Default 5 GiB. */
  maxObjectSize?: number;
  /** Clock for tests. */
  now?: () => Date;
  /**
   * Answer through msw's `getResponse` over the emulator's msw handlers instead of calling the emulator's
   * request function directly. Same handler code either way; msw adds a request clone, URL matching and an
   * AbortController per request (~25-40% of the per-request CPU, see bench/server-throughput.ts). Default false.
   */
  viaMsw?: boolean;
  /**
   * Limits that keep one misbehaving client from holding the server (all have defaults; tests shorten them;
   * mocks/server-guard.ts): a request's headers must arrive within `headersTimeoutMs` (default 20 s); its
   * body must bring at least `bodyMinBytesPerSecond` (default 500) × `bodyTimeoutMs` (default 20 s) bytes in
   * every `bodyTimeoutMs`, else 408; a socket on which nothing arrives for `idleTimeoutMs` (default 60 s) is closed,
   * with 408 when an answer is still possible; one client address may hold `maxConnectionsPerClient` open
   * connections (default 256) and send `maxRequestsPerSecondPerClient` requests a second (default 10,000,
   * bursts of `requestBurstPerClient`, default 20,000): past either, requests are answered 503 with
   * Retry-After; request line plus headers may be `maxHeaderSize` bytes (default 16 KiB, Node's own default).
   * A slow multi-GiB upload that keeps sending is never cut off.
   */
  limits?: Partial<ServerLimits>;
  /**
   * Access log, one line per request: 'text' (time, method, path, status, bytes, ms, request id; a refused
   * signature adds the string-to-sign the server computed), 'json' (the same as one JSON object per line),
   * or 'none'. Default 'none' here (tests); the command line defaults to 'text'.
   */
  log?: 'text' | 'json' | 'none';
  /** Where log lines go; default standard output. */
  logLine?: (line: string) => void;
}

export interface ServerLimits extends ConnectionLimits {
  headersTimeoutMs: number;
  maxHeaderSize: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 60_000,
  maxConnectionsPerClient: 256,
  maxRequestsPerSecondPerClient: 10_000,
  requestBurstPerClient: 20_000,
  bodyTimeoutMs: 20_000,
  bodyMinBytesPerSecond: 500,
  maxHeaderSize: 16 * 1024,
};

export interface RunningEmulatorServer {
  /** Base URL for path-style clients, e.g. http://127.0.0.1:9000 */
  url: string;
  port: number;
  host: string;
  domains: readonly string[];
  defaultZone: string;
  zones: readonly string[];
  users: readonly ServerUser[];
  store: Store;
  close(): Promise<void>;
}

/** Zones the handlers know (ref §1.1): the DOCS zones plus the default zone. */
function knownZones(defaultZone: string): readonly string[] {
  const zones: string[] = [...DEFAULT_ZONES];
  return zones.includes(defaultZone) ? zones : [...zones, defaultZone];
}

/** Starts the emulator on a real socket. Resolves once it is listening. */
export async function startEmulatorServer(options: EmulatorServerOptions = {}): Promise<RunningEmulatorServer> {
  const host = options.host ?? DEFAULT_HOST;
  const domains = options.domains ?? [DEFAULT_DOMAIN];
  const defaultZone = options.defaultZone ?? DEFAULT_ZONE;
  const users = options.users ?? [DEMO_USER];
  const disk = options.dataDir === undefined ? undefined : DiskPersistence.open(options.dataDir, options.releaseDelayMs === undefined ? {} : { releaseDelayMs: options.releaseDelayMs });
  const emulator = await createEmulator({
    seed: options.seed ?? 'demo',
    users,
    domains,
    defaultZone,
    acceptAnyHost: true,
    strictCors: options.strictCors ?? false,
    ...(options.listLimitMax !== undefined ? { listLimitMax: options.listLimitMax } : {}),
    ...(options.minPartSize !== undefined ? { minPartSize: options.minPartSize } : {}),
    ...(options.copyLimit !== undefined ? { copyLimit: options.copyLimit } : {}),
    ...(options.maxObjectSize !== undefined ? { maxObjectSize: options.maxObjectSize } : {}),
    ...(options.now ? { now: options.now } : {}),
    postFormReader: streamingFormReader,
    ...(disk
      ? {
          persistence: {
            journal: disk,
            bodySink: () => disk.newSink(),
            durable: disk.durable,
            restore: (store) => {
              if (disk.isEmpty()) return false;
              disk.restoreInto(store);
              return true;
            },
          },
        }
      : {}),
  });
  // The msw handler's resolver is `handleEmulatorRequest(request, resolveOptions(<these options>))` behind a
  // host predicate that accepts every host when acceptAnyHost is on (mocks/handlers/index.ts createHandlers);
  // calling it directly over the same store answers identically without msw's per-request machinery.
  const direct = resolveOptions({
    store: emulator.store,
    users: emulator.users,
    domains,
    defaultZone,
    acceptAnyHost: true,
    strictCors: options.strictCors ?? false,
    ...(options.now ? { now: options.now } : {}),
    postFormReader: streamingFormReader,
    // Each answer waits for the shared flush that makes the state it describes durable (store/disk.ts).
    ...(disk ? { durable: disk.durable } : {}),
  });
  const respond: Responder = options.viaMsw ? mswResponder(emulator.handlers) : (request) => handleEmulatorRequest(request, direct);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const logFormat = options.log ?? 'none';
  const writeLine = options.logLine ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const log =
    logFormat === 'none' ? undefined : (entry: AccessLogEntry) => writeLine(logFormat === 'json' ? formatAccessJson(entry) : formatAccessLine(entry));
  const server = http.createServer(
    {
      keepAliveTimeout: 30_000,
      // requestTimeout 0 would also turn headersTimeout off (Node derives one from the other): set both.
      requestTimeout: 0,
      headersTimeout: limits.headersTimeoutMs,
      // How often Node looks for connections past headersTimeout (default every 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      maxHeaderSize: limits.maxHeaderSize,
    },
  );
  const guard = guardConnections(server, limits, log);
  server.on(
    'request',
    createRequestListener({
      respond,
      fallbackHost: urlHost,
      stringToSignOf: computedStringToSign,
      ...(log ? { log } : {}),
      onError: (error) => console.error('[qingstor-emulator] adapter failure:', error instanceof Error ? error.message : String(error)),
      guard,
    }),
  );
  server.on('connect', (_req, socket) => {
    socket.end(connectRefusal());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEFAULT_PORT, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // e.g. the port is taken: give the data directory back.
    disk?.close();
    throw error;
  }
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('emulator: not listening on a TCP port');
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    host,
    domains,
    defaultZone,
    zones: knownZones(defaultZone),
    users,
    store: emulator.store,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          disk?.close();
          resolve();
        });
        // Keep-alive sockets would hold close() open until they time out.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 500).unref();
      });
      return closing;
    },
  };
}

function banner(running: RunningEmulatorServer, seed: SeedName, source: UsersSource): string {
  const port = running.port;
  const [domain] = running.domains;
  const lines = [
    `QingStor emulator listening on ${running.url}  (seed: ${seed})`,
    '',
    'Endpoints',
    `  path style, any host    ${running.url}/<bucket>/<key>   (zone ${running.defaultZone})`,
  ];
  if (domain !== undefined) {
    lines.push(
      `  zone host (path style)  Host: <zone>.${domain}[:${port}]           e.g. http://${running.defaultZone}.${domain}:${port}/<bucket>/<key>`,
      `  virtual host            Host: <bucket>.<zone>.${domain}[:${port}]  e.g. http://<bucket>.${running.defaultZone}.${domain}:${port}/<key>`,
      `  service (all zones)     Host: ${domain}[:${port}]`,
      `  or use ${running.url} as an HTTP proxy for those URLs (absolute-form requests)`,
    );
  }
  if (running.domains.length > 1) lines.push(`  domains                 ${running.domains.join(', ')}`);
  lines.push(`  zones                   ${running.zones.join(', ')}`, '', 'Credentials');
  for (const user of running.users) {
    // Only the documented, public demo secret is ever printed.
    const secret = user.secretAccessKey === DEMO_SECRET_ACCESS_KEY ? user.secretAccessKey : source === 'env' ? '(from QS_SECRET_ACCESS_KEY)' : '(from the users file)';
    lines.push(`  ${user.id}  access key id ${user.accessKeyId}  secret ${secret}`);
  }
  lines.push('', 'Ctrl-C stops the server.');
  return lines.join('\n');
}

async function main(): Promise<void> {
  let cli: ReturnType<typeof parseCli>;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(`serve:mock: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  if (cli === 'help') {
    console.log(USAGE);
    return;
  }
  const { users, source } = await resolveUsers(cli.usersFile, process.env, DEMO_USER);
  const running = await startEmulatorServer({
    port: cli.port,
    host: cli.host,
    domains: cli.domains,
    seed: cli.seed,
    defaultZone: cli.defaultZone,
    users,
    strictCors: cli.strictCors,
    viaMsw: cli.viaMsw,
    ...(cli.copyLimit !== undefined ? { copyLimit: cli.copyLimit } : {}),
    ...(cli.dataDir !== undefined ? { dataDir: cli.dataDir } : {}),
    log: cli.quiet ? 'none' : cli.log,
  });
  console.log(banner(running, cli.seed, source));
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`serve:mock: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
