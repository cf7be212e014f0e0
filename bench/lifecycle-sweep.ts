/**
 * Does the emulator's lifecycle work delay other requests? A standalone emulator (in a process of its own)
 * holds 100,000 objects in one bucket with 100 expiration rules due now; one GET of that bucket starts the
 * sweep while a client sends GETs to another bucket one after another for 6 s and times each. The floor is
 * the same run with no rules, in the same process layout, interleaved (the machine may be shared). The issue's
 * goal: no request delayed by more than 100 ms. Run: `npm run bench:lifecycle-sweep -- [rounds]` (default 2).
 */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { signedHeaders } from '../mocks/server-client.ts';
import { DEMO_ACCESS_KEY_ID, DEMO_SECRET_ACCESS_KEY } from '../mocks/server-options.ts';

const DAY = 86_400_000;
const OBJECTS = 100_000;
const RULES = 100;
const WATCH_MS = 6_000;
const GOAL_MS = 100;

interface Ready { port: number; now: number }
interface Done { count: number; slices: number; longestSliceCpuMs: number }

/** The child: an emulator with the big bucket (and its rules unless `norules`), the clock moved past them. */
async function child(withRules: boolean): Promise<void> {
  const { startEmulatorServer } = await import('../mocks/server.ts');
  const { lifecycleProgress } = await import('../mocks/store/index.ts');
  const clock = { now: Date.parse('2026-03-01T00:00:00Z') };
  const server = await startEmulatorServer({ port: 0, seed: 'empty', now: () => new Date(clock.now) });
  const store = server.store;
  const ownerId = server.users[0]?.id ?? 'usr-owner001';
  store.createBucket({ name: 'lc-big', zone: 'pek3a', ownerId } as Parameters<typeof store.createBucket>[0]);
  store.createBucket({ name: 'other-bucket', zone: 'pek3a', ownerId } as Parameters<typeof store.createBucket>[0]);
  const old = new Date(clock.now - 60 * DAY);
  const young = new Date(clock.now);
  const entries = Array.from({ length: OBJECTS }, (_, i) => ({ key: `p${String(i % RULES).padStart(2, '0')}/obj-${String(i).padStart(6, '0')}`, lastModified: i % 2 === 0 ? old : young }));
  store.bulkLoad('lc-big', entries);
  if (withRules) store.putBucketLifecycle('lc-big', Array.from({ length: RULES }, (_, r) => ({ id: `r${r}`, status: 'enabled' as const, filter: { prefix: `p${String(r).padStart(2, '0')}/` }, expiration: { days: 30 } })));
  clock.now += 2 * DAY;
  process.send?.({ port: server.port, now: clock.now } satisfies Ready);
  process.on('message', (message) => {
    if (message === 'count') {
      const progress = lifecycleProgress(store);
      process.send?.({ count: store.getBucketStatistics('lc-big').count, slices: progress.slices, longestSliceCpuMs: progress.longestSliceCpuMs } satisfies Done);
    }
    if (message === 'stop') void server.close().then(() => process.exit(0));
  });
}

function reply<T>(proc: ChildProcess, send?: string): Promise<T> {
  return new Promise((done) => {
    proc.once('message', (message) => done(message as T));
    if (send) proc.send(send);
  });
}

async function run(withRules: boolean) {
  const proc = fork(import.meta.filename, ['--child', withRules ? 'rules' : 'norules'], { execArgv: ['--max-semi-space-size=1'] });
  const { port, now } = await reply<Ready>(proc);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const host = `127.0.0.1:${port}`;
  const credentials = { accessKeyId: DEMO_ACCESS_KEY_ID, secretAccessKey: DEMO_SECRET_ACCESS_KEY };
  const get = async (path: string) => {
    const headers = await signedHeaders({ method: 'GET', host, pathAndQuery: path, credentials, now: new Date(now) });
    const started = performance.now();
    const status = await new Promise<number>((done, fail) => {
      http.get({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      }).on('error', fail);
    });
    if (status !== 200) throw new Error(`GET ${path}: ${status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i += 1) await get('/other-bucket?limit=1');
  const times: number[] = [];
  const end = performance.now() + WATCH_MS;
  const trigger = new Promise<number>((done) => setTimeout(() => void get('/lc-big?limit=1').then(done), 300));
  while (performance.now() < end) times.push(await get('/other-bucket?limit=1'));
  const triggerMs = await trigger;
  const done = await reply<Done>(proc, 'count');
  proc.send('stop');
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { n: times.length, p99: at(0.99), max: times.at(-1) ?? 0, over: times.filter((t) => t > GOAL_MS).length, triggerMs, ...done };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] === 'rules');
} else {
  const rounds = Number(process.argv[2] ?? 2);
  console.log(`lifecycle sweep: ${RULES} rules over ${OBJECTS.toLocaleString('en')} objects, GETs to another bucket for ${WATCH_MS / 1000} s (goal: none over ${GOAL_MS} ms)`);
  for (let round = 1; round <= rounds; round += 1) {
    for (const withRules of [false, true]) {
      const load = loadavg()[0]?.toFixed(1);
      const r = await run(withRules);
      const label = withRules ? 'with rules (sweep)' : 'floor: no rules  ';
      const sweep = withRules ? `; sweep: ${r.slices} slices, longest ${r.longestSliceCpuMs.toFixed(1)} ms CPU, ${r.count.toLocaleString('en')} objects left` : '';
      console.log(`round ${round} ${label}  ${r.n} GETs, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms, over ${GOAL_MS} ms: ${r.over}; the triggering GET ${r.triggerMs.toFixed(1)} ms${sweep}  (load ${load})`);
    }
  }
}
