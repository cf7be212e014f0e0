/**
 * What the bulk-edit bench watches in the page while a job runs, beside its figures:
 *
 *   - the page's heap (CDP Runtime.getHeapUsage every 250 ms, the largest kept);
 *   - the main thread's busy time (CDP Performance.getMetrics: TaskDuration, ScriptDuration and
 *     Layout + RecalcStyle durations, the difference between the job's start and end), per object;
 *   - the journal's IndexedDB write transactions (IDBDatabase.transaction in readwrite mode, counted by a
 *     script installed before the page's own), per object;
 *   - the pool's limit over time, as the job view shows it ("N at a time"), sampled every 500 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';

/** Installed before the console's scripts: counts readwrite transactions on <html data-idb-writes>. */
export function countIdbWrites(): void {
  const original = IDBDatabase.prototype.transaction;
  let writes = 0;
  IDBDatabase.prototype.transaction = function transaction(this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    if (args[1] === 'readwrite') {
      writes += 1;
      document.documentElement.dataset['idbWrites'] = String(writes);
    }
    return original.apply(this, args);
  };
}

/** In the page: the most table rows (or grid rows) seen at once, sampled every 100 ms, kept on <html data-rows-max>. */
function watchRows(): void {
  const root = document.documentElement;
  root.dataset['rowsMax'] = '0';
  setInterval(() => {
    root.dataset['rowsMax'] = String(Math.max(Number(root.dataset['rowsMax']), document.querySelectorAll('tr, [role="row"]').length));
  }, 100);
}

interface MainThread {
  task: number;
  script: number;
  layout: number;
}

async function mainThread(cdp: CDPSession): Promise<MainThread> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { task: of('TaskDuration'), script: of('ScriptDuration'), layout: of('LayoutDuration') + of('RecalcStyleDuration') };
}

export interface ProbeResult {
  heapMax: number;
  rowsMax: number;
  /** Main-thread seconds during the job, by kind. */
  busy: MainThread;
  idbWrites: number;
  /** The pool's limit as the view showed it, one sample per 500 ms. */
  limits: number[];
}

export interface Probe {
  stop(): Promise<ProbeResult>;
}

const idbWritesOf = async (page: Page) => Number(await page.evaluate(() => document.documentElement.dataset['idbWrites'] ?? '0'));

export async function startProbe(page: Page): Promise<Probe> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.evaluate(watchRows);
  const busyAtStart = await mainThread(cdp);
  const idbAtStart = await idbWritesOf(page);
  let heapMax = 0;
  const limits: number[] = [];
  const heap = setInterval(() => {
    cdp.send('Runtime.getHeapUsage').then((usage) => {
      heapMax = Math.max(heapMax, usage.usedSize);
    }, () => undefined);
  }, 250);
  const limit = setInterval(() => {
    page
      .getByTestId('job-phase')
      .textContent({ timeout: 400 })
      .then((text) => {
        const match = /(\d+) at a time/.exec(text ?? '');
        if (match) limits.push(Number(match[1]));
      }, () => undefined);
  }, 500);
  return {
    async stop() {
      clearInterval(heap);
      clearInterval(limit);
      const busyAtEnd = await mainThread(cdp);
      const rowsMax = Number(await page.evaluate(() => document.documentElement.dataset['rowsMax']));
      const idbWrites = (await idbWritesOf(page)) - idbAtStart;
      await cdp.detach();
      const busy = { task: busyAtEnd.task - busyAtStart.task, script: busyAtEnd.script - busyAtStart.script, layout: busyAtEnd.layout - busyAtStart.layout };
      return { heapMax, rowsMax, busy, idbWrites, limits };
    },
  };
}

/** "4→9 (median 8, max 12)": the pool's limit from first to last sample. */
export function describeLimits(limits: readonly number[]): string {
  if (limits.length === 0) return 'not seen';
  const sorted = [...limits].sort((a, b) => a - b);
  return `${limits[0]}→${limits.at(-1)} (median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}, ${limits.length} samples)`;
}

/**
 * CPU seconds (user + system) a process and all its descendants have used so far, from /proc (Linux; 0
 * elsewhere). A process that ended is no longer counted, so sample around phases of long-lived processes.
 */
export function treeCpuSeconds(root: number | undefined): number {
  if (root === undefined) return 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const pid of entries) {
    try {
      // Fields after the command (which may hold spaces) start after the last ')': state, ppid, ... utime (14), stime (15).
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Gone meanwhile.
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.parent, [...(children.get(s.parent) ?? []), pid]);
  let ticks = 0;
  const stack = [root];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  // USER_HZ is 100 on Linux.
  return ticks / 100;
}
