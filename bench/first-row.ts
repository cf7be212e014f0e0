/**
 * First-row sampling shared by the browse bench: a target is a page (the console or a floor) whose first
 * row's paint time is taken with Element Timing, cold (a new browser context), warm (a reload) and after a
 * second reload (Chromium reads the code cache the first reload wrote). Targets are sampled in rounds, one
 * sample of each per round, so a console figure and its floor see the same machine load.
 */
import type { Browser, Page } from '@playwright/test';
import { FLOOR_FIRST_ROW, scriptsFetchedBefore } from './floors.ts';
import { markPaintOf, paintTimeOf, spread, summarize, type Figure } from './lib.ts';

export interface Target {
  label: string;
  /** The page opened. */
  url: string;
  /** sessionStorage of a connected tab (endpoint mode); undefined: none. */
  session?: Array<[string, string]>;
  /** The element whose paint is the first row (Element Timing reports an element's own text). */
  paint: string;
  /** The key the first row must show, read by `keyOf`. */
  firstKey: string;
  keyOf: (page: Page) => Promise<string | null>;
}

export interface ColdWarm {
  cold: number[];
  /** The first reload: Chromium compiles the scripts again and writes V8's code cache for them. */
  warm: number[];
  /** A second reload: the scripts' code comes from that cache. */
  settled: number[];
  /** Per cold sample: the paths of the scripts fetched before the first row was painted. */
  scripts: string[][];
}

/** A floor page's first row: the first cell of its table. */
export function floorTarget(label: string, url: string, firstKey: string): Target {
  return { label, url, paint: FLOOR_FIRST_ROW, firstKey, keyOf: (page) => page.locator(FLOOR_FIRST_ROW).first().textContent() };
}

/** In the page before its scripts: restores the tab's sessionStorage (a remembered connection). */
export function restoreSession(entries: Array<[string, string]>): void {
  if (sessionStorage.length > 0) return;
  for (const [key, value] of entries) sessionStorage.setItem(key, value);
}

async function firstRowPainted(page: Page, target: Target, action: () => Promise<unknown>): Promise<number> {
  await action();
  const time = await page.evaluate(paintTimeOf, 'qs-first-row');
  const key = await target.keyOf(page);
  if (key !== target.firstKey) throw new Error(`${target.label}: unexpected first row ${String(key)}`);
  return time;
}

async function sampleOnce(browser: Browser, target: Target, into: ColdWarm): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (target.session) await context.addInitScript(restoreSession, target.session);
    await context.addInitScript(markPaintOf, [{ selector: target.paint, id: 'qs-first-row' }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const cold = await firstRowPainted(page, target, () => page.goto(target.url));
    into.cold.push(cold);
    into.scripts.push(await page.evaluate(scriptsFetchedBefore, cold));
    into.warm.push(await firstRowPainted(page, target, () => page.reload()));
    into.settled.push(await firstRowPainted(page, target, () => page.reload()));
    if (errors.length > 0) throw new Error(`${target.label}: page errors: ${errors.join('; ')}`);
  } finally {
    await context.close();
  }
}

const empty = (): ColdWarm => ({ cold: [], warm: [], settled: [], scripts: [] });

/** Samples every target in turn, N rounds, so all of them see the same machine load. */
export async function sampleTargets(browser: Browser, targets: readonly Target[], samples: number): Promise<ColdWarm[]> {
  const results = targets.map(empty);
  for (let i = 0; i < samples; i++) {
    for (const [t, target] of targets.entries()) await sampleOnce(browser, target, results[t] ?? empty());
  }
  return results;
}

export function medianFigure(name: string, values: readonly number[], note: string): Figure {
  const sample = summarize(values);
  return { name, value: Math.round(sample.median), unit: 'ms', note: `${spread(sample)}; ${note}` };
}

/**
 * A console figure over its floor: the median of the ratios of samples taken in the same round (the
 * machine's load drifts between rounds), with the ratio of the medians in the note.
 */
export function ratioFigure(name: string, console: readonly number[], floor: readonly number[]): Figure {
  const ratios = console.map((c, i) => c / (floor[i] ?? Number.NaN)).filter(Number.isFinite);
  const r = summarize(ratios);
  const ofMedians = summarize(console).median / summarize(floor).median;
  const two = (n: number): number => Math.round(n * 100) / 100;
  return { name, value: two(r.median), unit: '×', note: `median of ${r.n} same-round ratios, range ${two(r.min)}–${two(r.max)}; ratio of the medians ${two(ofMedians)}` };
}
