/**
 * The floor of the console's first rows and of the inspector: the simplest page that does the same job.
 * It signs the console's own first request (captured by the bench) in the query string, fetches it from
 * the emulator and renders `rows` rows as a plain table. `#kind=parts`: the first page of an upload's parts,
 * then every further page one after another (part_number_marker = the last part of the page before, until
 * a short page), and a totals line.
 */
import { floorSettings, getJson, objectCells, partsOf, renderRows, renderTotals, showError } from './shared.ts';

async function main(): Promise<void> {
  const settings = floorSettings();
  const kind = new URLSearchParams(location.hash.slice(1)).get('kind') ?? 'objects';
  const first = await getJson(settings, settings.url);
  if (kind === 'objects') {
    renderRows(objectCells(first, settings.rows));
    return;
  }
  let parts = partsOf(first);
  renderRows(parts.slice(0, settings.rows).map((p) => [String(p.part_number), String(p.size ?? ''), p.etag ?? '', p.created ?? '']));
  const limit = Number(settings.url.searchParams.get('limit') ?? '1000');
  let count = parts.length;
  let bytes = parts.reduce((sum, p) => sum + (p.size ?? 0), 0);
  let pages = 1;
  while (parts.length >= limit) {
    const next = new URL(settings.url);
    next.searchParams.set('part_number_marker', String(parts.at(-1)?.part_number ?? 0));
    parts = partsOf(await getJson(settings, next));
    pages += 1;
    count += parts.length;
    bytes += parts.reduce((sum, p) => sum + (p.size ?? 0), 0);
  }
  renderTotals(`${count} parts, ${bytes} bytes, ${pages} pages`);
}

main().catch(showError);
