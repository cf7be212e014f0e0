/**
 * What every floor page shares: its settings (the page's hash, set by the bench), signing a GET in the
 * query string (the console's own signing code, Web Crypto only) and a plain table of rows.
 */
import { presignUrl } from '../../src/api/signing.ts';

export interface FloorSettings {
  /** The request to make, unsigned (the console's own first request, captured by the bench). */
  url: URL;
  accessKeyId: string;
  secretAccessKey: string;
  /** Rows to render. */
  rows: number;
}

export function floorSettings(): FloorSettings {
  const hash = new URLSearchParams(location.hash.slice(1));
  const need = (name: string): string => {
    const value = hash.get(name);
    if (value === null) throw new Error(`floor page: no ${name} in the hash`);
    return value;
  };
  return { url: new URL(need('url')), accessKeyId: need('ak'), secretAccessKey: need('sk'), rows: Number(hash.get('rows') ?? '50') };
}

/** `url` signed in its query string for 15 minutes (no header of its own: a CORS simple request, no preflight). */
export function signed(settings: FloorSettings, url: URL): Promise<URL> {
  return presignUrl({
    method: 'GET',
    url,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    expires: Math.floor(Date.now() / 1000) + 900,
  });
}

export async function getJson(settings: FloorSettings, url: URL): Promise<unknown> {
  const response = await fetch(await signed(settings, url), { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET ${url.pathname}: ${response.status}`);
  return response.json();
}

/** A table with one row per entry, each cell its text (the bench watches `#rows td` paint). */
export function renderRows(cells: ReadonlyArray<readonly string[]>): void {
  const table = document.createElement('table');
  table.id = 'rows';
  const body = table.createTBody();
  for (const row of cells) {
    const tr = body.insertRow();
    for (const text of row) tr.insertCell().textContent = text;
  }
  document.body.append(table);
}

export function renderTotals(text: string): void {
  const p = document.createElement('p');
  p.id = 'totals';
  p.textContent = text;
  document.body.append(p);
}

export function showError(error: unknown): void {
  const p = document.createElement('p');
  p.id = 'floor-error';
  p.textContent = error instanceof Error ? error.message : String(error);
  document.body.append(p);
}

interface ObjectsPage {
  keys?: Array<{ key: string; size?: number; modified?: number }>;
}

export function objectCells(page: unknown, rows: number): string[][] {
  const { keys = [] } = page as ObjectsPage;
  return keys.slice(0, rows).map((k) => [k.key, String(k.size ?? ''), String(k.modified ?? '')]);
}

interface PartsPage {
  object_parts?: Array<{ part_number: number; size?: number; etag?: string; created?: string }>;
}

export function partsOf(page: unknown): NonNullable<PartsPage['object_parts']> {
  return (page as PartsPage).object_parts ?? [];
}
