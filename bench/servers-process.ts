/**
 * The servers a browser bench talks to, in a process of their own (so the driver's Playwright work and
 * the servers do not share one event loop): the built console, served by the static handler `npm run
 * serve` uses (no proxy config, so it starts in demo mode unless connected), and optionally the standalone
 * emulator with the demo seed.
 *
 *   node bench/servers-process.ts '{"dist":"…/dist","emulator":true,"plantParts":10000}'
 *
 * Prints one JSON line `{ site, emulator?, uploadId? }` when listening and runs until its stdin closes.
 * `plantParts`: plants an upload `bench/ten-thousand-parts.bin` in `demo-uploads` with part numbers
 * 0..plantParts except plantParts/2 + 1 (one gap), 16-byte bodies, so figures measure listing and rendering.
 * `floors`: serves that folder (the floor pages, bench/floors.ts) too, from an origin of its own.
 * `bucketKeys`: adds the bucket `bench-million` (zone sh1a, the demo's CORS rule) holding that many keys
 * laid out like the demo archive (logs/<date>/event-NNNN.json), built page by page as it is listed.
 * `countRequests`: the emulator tallies the requests that reached it by bucket and method; a line
 * `counts` on stdin is answered with one JSON line `{ counts: { <bucket>: { <method>: n } } }`, `reset`
 * empties the tally (answered `{ counts: {} }`).
 */
import http from 'node:http';
import { z } from 'zod';
import { archiveSource, DEMO_CORS } from '../mocks/seed.ts';
import { startEmulatorServer, type RunningEmulatorServer } from '../mocks/server.ts';
import { createStaticSite } from '../src/serve/static.ts';

export const PLANTED_KEY = 'bench/ten-thousand-parts.bin';

export const BIG_BUCKET = 'bench-million';

const argsSchema = z.object({
  dist: z.string(),
  emulator: z.boolean().default(false),
  plantParts: z.int().positive().optional(),
  bucketKeys: z.int().positive().optional(),
  /** A folder of floor pages (bench/floors.ts) to serve from an origin of their own. */
  floors: z.string().optional(),
  countRequests: z.boolean().default(false),
});

/** Requests that reached the emulator, by bucket (the path's first segment) and method. */
const tally = new Map<string, Map<string, number>>();

function countLine(line: string): void {
  const entry = z.object({ method: z.string(), path: z.string() }).parse(JSON.parse(line));
  const bucket = decodeURIComponent(entry.path.split(/[/?]/)[1] ?? '');
  const methods = tally.get(bucket) ?? new Map<string, number>();
  methods.set(entry.method, (methods.get(entry.method) ?? 0) + 1);
  tally.set(bucket, methods);
}

function tallyJson(): string {
  return JSON.stringify({ counts: Object.fromEntries([...tally].map(([bucket, methods]) => [bucket, Object.fromEntries(methods)])) });
}

async function serveStatic(dist: string): Promise<{ url: string; close(): void }> {
  // No CSP here: the console connects to an emulator whose address is not known when this starts.
  const site = createStaticSite(dist, {});
  const server = http.createServer((req, res) => site.handle(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('bench server: no TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

function plantUpload(emulator: RunningEmulatorServer, parts: number): string {
  const { store } = emulator;
  const { uploadId } = store.initiateMultipartUpload('demo-uploads', PLANTED_KEY, {});
  const body = new Uint8Array(16).fill(7);
  const gap = Math.floor(parts / 2) + 1;
  for (let n = 0; n <= parts; n++) {
    if (n === gap) continue;
    store.uploadPart('demo-uploads', PLANTED_KEY, uploadId, n, { body });
  }
  return uploadId;
}

function plantBigBucket(emulator: RunningEmulatorServer, keys: number): void {
  const { store } = emulator;
  const { ownerId } = store.getBucket('demo-archive');
  store.createBucket({ name: BIG_BUCKET, zone: 'sh1a', ownerId });
  store.bulkLoadLazy(BIG_BUCKET, archiveSource(keys));
  store.putBucketCors(BIG_BUCKET, DEMO_CORS);
}

if (import.meta.main) {
  const args = argsSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
  const site = await serveStatic(args.dist);
  const floors = args.floors === undefined ? undefined : await serveStatic(args.floors);
  const emulator = args.emulator ? await startEmulatorServer({ port: 0, seed: 'demo', ...(args.countRequests ? { log: 'json' as const, logLine: countLine } : {}) }) : undefined;
  const uploadId = emulator && args.plantParts !== undefined ? plantUpload(emulator, args.plantParts) : undefined;
  if (emulator && args.bucketKeys !== undefined) plantBigBucket(emulator, args.bucketKeys);
  process.stdout.write(`${JSON.stringify({ site: site.url, ...(floors ? { floors: floors.url } : {}), ...(emulator ? { emulator: emulator.url } : {}), ...(uploadId ? { uploadId } : {}) })}\n`);
  process.stdin.resume();
  let pending = '';
  process.stdin.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let cut = pending.indexOf('\n'); cut >= 0; cut = pending.indexOf('\n')) {
      const command = pending.slice(0, cut).trim();
      pending = pending.slice(cut + 1);
      if (command === 'reset') tally.clear();
      if (command === 'counts' || command === 'reset') process.stdout.write(`${tallyJson()}\n`);
    }
  });
  process.stdin.on('end', () => {
    site.close();
    floors?.close();
    void emulator?.close().then(() => process.exit(0));
    if (!emulator) process.exit(0);
  });
}
