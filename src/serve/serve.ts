/**
 * `npm run serve -- --endpoint <url> [--port 8080] [--host 127.0.0.1] [--dist dist] [--connect-to host:port]`
 *
 * Serves the built console and, on the same origin, forwards QingStor API calls to the endpoint
 * (see proxy.ts for the wire contract), so the console works where CORS cannot be configured, e.g.
 * service-level ListBuckets. The proxy holds no credentials: the console signs every request itself.
 *
 * The console's files go out through sirv (static.ts) with the build's brotli/gzip copies and the strict
 * page headers of headers.ts (CSP, no framing, nosniff, no referrer); the proxy's answers carry their own
 * inert headers (proxy.ts).
 *
 * The index.html it sends tells the console it is behind this proxy (serve-meta.ts), and so does
 * `GET /_serve/config.json`: {"proxyBase": "/_qs", "endpoint": "<endpoint origin>"}
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PROXY_PREFIX, createProxy } from './proxy.ts';
import { consoleSecurityHeaders } from './headers.ts';
import { withServeMeta } from './serve-meta.ts';
import { createStaticSite } from './static.ts';

export const SERVE_CONFIG_PATH = '/_serve/config.json';

export interface ServeOptions {
  endpoint: string;
  port?: number;
  host?: string;
  dist?: string;
  connectTo?: { host: string; port: number };
}

export interface RunningServe {
  url: string;
  port: number;
  close(): Promise<void>;
}

const endpointSchema = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '' &&
        (url.pathname === '/' || url.pathname === '') && url.search === '' && url.hash === '';
    } catch {
      return false;
    }
  }, 'endpoint must be an http(s) origin such as https://qingstor.com or http://127.0.0.1:9000');

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const endpoint = new URL(endpointSchema.parse(options.endpoint));
  const proxy = createProxy({ endpoint, ...(options.connectTo ? { connectTo: options.connectTo } : {}) });
  const pageHeaders = consoleSecurityHeaders(endpoint);
  const dist = options.dist ?? 'dist';
  const serveConfig = { proxyBase: PROXY_PREFIX.slice(0, -1), endpoint: endpoint.origin };
  const config = JSON.stringify(serveConfig);
  const indexFile = path.join(dist, 'index.html');
  // Without a build, createStaticSite says so.
  const site = createStaticSite(dist, pageHeaders, existsSync(indexFile) ? { indexHtml: withServeMeta(readFileSync(indexFile, 'utf8'), serveConfig) } : {});

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith(PROXY_PREFIX)) {
      proxy.handle(req, res);
      return;
    }
    if (url === SERVE_CONFIG_PATH) {
      res.writeHead(200, { ...pageHeaders, 'content-type': 'application/json', 'cache-control': 'no-cache', 'content-length': Buffer.byteLength(config) });
      res.end(req.method === 'HEAD' ? undefined : config);
      return;
    }
    site.handle(req, res);
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('serve: not listening on a TCP port');
  const { port } = address;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const cliSchema = z.object({
  endpoint: endpointSchema,
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().min(1).default('127.0.0.1'),
  dist: z.string().min(1).default('dist'),
  'connect-to': z
    .string()
    .regex(/^[^:]+:\d{1,5}$/, 'connect-to must be host:port')
    .optional(),
});

async function main(): Promise<void> {
  const usage = 'usage: npm run serve -- --endpoint <url> [--port 8080] [--host 127.0.0.1] [--dist dist] [--connect-to host:port]';
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        endpoint: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        dist: { type: 'string' },
        'connect-to': { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    // Unknown options and missing option values are usage errors, like invalid values below.
    console.error(`serve: ${error instanceof Error ? error.message : String(error)}`);
    console.error(usage);
    process.exit(2);
  }
  const parsed = cliSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`serve: --${issue.path.join('.')}: ${issue.message}`);
    console.error(usage);
    process.exit(2);
  }
  const args = parsed.data;
  const connect = args['connect-to'];
  const connectTo = connect ? { host: connect.slice(0, connect.lastIndexOf(':')), port: Number(connect.slice(connect.lastIndexOf(':') + 1)) } : undefined;
  const running = await startServe({ endpoint: args.endpoint, port: args.port, host: args.host, dist: args.dist, ...(connectTo ? { connectTo } : {}) });
  console.log(`QingStor console: ${running.url}/`);
  console.log(`API proxy:        ${running.url}${PROXY_PREFIX}<host>/<path> -> ${new URL(args.endpoint).origin} (no credentials added)`);
  if (connectTo) console.log(`Upstream connections go to ${connectTo.host}:${connectTo.port}`);
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`serve: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
