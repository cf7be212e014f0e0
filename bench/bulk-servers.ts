/**
 * The servers of the bulk-edit bench, in a process of their own (so the driver's Playwright work, the Node
 * reference client and the servers do not share one event loop): the built console, served by the static
 * handler `npm run serve` uses, and the standalone emulator counting the requests it answers by method.
 *
 *   node bench/bulk-servers.ts '{"dist":"…/dist","buckets":{"bench-bulk-console":20000,"bench-bulk-node":20000}}'
 *
 * Each bucket (zone pek3a) holds that many objects under `data/` (2 in 5 of them one folder deeper), each with
 * a Content-Type, a Content-Disposition and two custom keys, and a CORS rule that lets the console read every
 * header. `bigBucket` adds a bucket of that many keys generated page by page as it is listed (the 1M run).
 * Prints one JSON line `{ site, emulator }` when listening; then answers each line on stdin: `counts` prints
 * `{"OPTIONS":n,"HEAD":n,…}` since the last `reset`; `reset` zeroes them. Runs until stdin closes.
 */
import http from 'node:http';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { archiveSource, DEMO_USER } from '../mocks/seed.ts';
import { startEmulatorServer } from '../mocks/server.ts';
import { createStaticSite } from '../src/serve/static.ts';

const argsSchema = z.object({
  dist: z.string(),
  buckets: z.record(z.string(), z.int().nonnegative()).default({}),
  bigBucket: z.object({ name: z.string(), keys: z.int().positive() }).optional(),
});

export function benchKey(i: number): string {
  return `data/${i % 5 < 2 ? 'deep/' : ''}object-${String(i).padStart(7, '0')}.json`;
}

export function benchMetadata(i: number) {
  return { standard: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="o${i}.json"` }, custom: { idx: String(i), team: 'bench' } };
}

/** Lets every origin read every header: the bench measures requests, not a CORS rule. */
const OPEN_CORS = { cors_rules: [{ allowed_origin: '*', allowed_methods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'], allowed_headers: ['*'], expose_headers: ['*'], max_age_seconds: 3600 }] };

if (import.meta.main) {
  const args = argsSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
  const site = createStaticSite(args.dist, {});
  const web = http.createServer((req, res) => site.handle(req, res));
  await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
  const address = web.address();
  if (address === null || typeof address === 'string') throw new Error('bench server: no TCP port');
  let counts: Record<string, number> = {};
  const emulator = await startEmulatorServer({
    port: 0,
    seed: 'empty',
    log: 'json',
    logLine: (line) => {
      const method = /"method":"([A-Z]+)"/.exec(line)?.[1] ?? '?';
      counts[method] = (counts[method] ?? 0) + 1;
    },
  });
  const { store } = emulator;
  for (const [name, objects] of Object.entries(args.buckets)) {
    store.createBucket({ name, zone: 'pek3a', ownerId: DEMO_USER.id });
    store.putBucketCors(name, OPEN_CORS);
    for (let i = 0; i < objects; i++) store.putObject(name, benchKey(i), { body: new TextEncoder().encode(`{"i":${i}}`), metadata: benchMetadata(i) });
  }
  if (args.bigBucket) {
    store.createBucket({ name: args.bigBucket.name, zone: 'pek3a', ownerId: DEMO_USER.id });
    store.bulkLoadLazy(args.bigBucket.name, archiveSource(args.bigBucket.keys));
    store.putBucketCors(args.bigBucket.name, OPEN_CORS);
  }
  process.stdout.write(`${JSON.stringify({ site: `http://127.0.0.1:${address.port}`, emulator: emulator.url })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line === 'counts') process.stdout.write(`${JSON.stringify(counts)}\n`);
    if (line === 'reset') {
      counts = {};
      process.stdout.write('{}\n');
    }
  });
  lines.on('close', () => {
    web.close();
    web.closeAllConnections();
    void emulator.close().then(() => process.exit(0));
  });
}
