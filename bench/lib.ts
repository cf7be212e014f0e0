/** Helpers shared by the browser benches: servers in a child process, sample statistics, figures. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

/** One measured figure, as every bench prints it and bench/run.ts compares it with its goal. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const serversSchema = z.object({ site: z.string(), floors: z.string().optional(), emulator: z.string().optional(), uploadId: z.string().optional() });
export type ServerAddresses = z.infer<typeof serversSchema>;

export interface ServersProcess extends ServerAddresses {
  close(): Promise<void>;
  /** With `countRequests`: the requests that reached the emulator, by bucket and method (`reset` empties the tally first). */
  requestCounts(reset?: boolean): Promise<RequestCounts>;
}

export type RequestCounts = Record<string, Record<string, number>>;

const countsSchema = z.object({ counts: z.record(z.string(), z.record(z.string(), z.number())) });

/** Starts bench/servers-process.ts in its own Node process and waits for its addresses. */
export async function startServersProcess(args: { dist: string; emulator?: boolean; plantParts?: number; bucketKeys?: number; floors?: string; countRequests?: boolean }): Promise<ServersProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'servers-process.ts'), JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { stdout, stdin } = child;
  if (!stdout || !stdin) throw new Error('servers process: no pipes');
  const lines = createInterface({ input: stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`servers process exited with ${String(code)} before listening`)));
  });
  const addresses = serversSchema.parse(JSON.parse(first));
  return {
    ...addresses,
    requestCounts: (reset = false) =>
      new Promise<RequestCounts>((resolve, reject) => {
        lines.once('line', (line) => {
          try {
            resolve(countsSchema.parse(JSON.parse(line)).counts);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        stdin.write(reset ? 'reset\n' : 'counts\n');
      }),
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        stdin.end();
      }),
  };
}

export interface Sample {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(values: readonly number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? Number.NaN : n % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? Number.NaN, max: sorted[n - 1] ?? Number.NaN, n };
}

/** "median of 7, 180–260 ms" */
export function spread(sample: Sample, unit = 'ms'): string {
  return `median of ${sample.n}, range ${Math.round(sample.min)}–${Math.round(sample.max)} ${unit}`;
}

/**
 * In the page, before its scripts: once an element matching `selector` is attached, it is given an
 * `elementtiming` identifier, so the browser reports when it was painted (Element Timing API, an `element`
 * performance entry whose renderTime is milliseconds since navigation start).
 */
export function markPaintOf(watch: ReadonlyArray<{ selector: string; id: string }>): void {
  const pending = new Map(watch.map((w) => [w.id, w.selector]));
  const observer = new MutationObserver(() => {
    for (const [id, selector] of pending) {
      const element = document.querySelector(selector);
      if (element) {
        element.setAttribute('elementtiming', id);
        pending.delete(id);
      }
    }
    if (pending.size === 0) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** In the page: the paint time (ms since navigation start) of the element marked `id`, waiting up to 30 s. */
export function paintTimeOf(id: string): Promise<number> {
  return new Promise((done, fail) => {
    setTimeout(() => fail(new Error(`no Element Timing entry "${id}" within 30 s`)), 30_000);
    const find = (entries: PerformanceEntryList): number | undefined => {
      for (const entry of entries) {
        if ('identifier' in entry && entry.identifier === id && 'renderTime' in entry && typeof entry.renderTime === 'number') return entry.renderTime || entry.startTime;
      }
      return undefined;
    };
    const observer = new PerformanceObserver((list) => {
      const time = find(list.getEntries());
      if (time !== undefined) {
        observer.disconnect();
        done(time);
      }
    });
    observer.observe({ type: 'element', buffered: true });
  });
}
