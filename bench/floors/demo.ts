/**
 * The demo's own floor: the simplest page that does what demo mode does for a first row. The emulator's
 * code (the same modules the console's demo backend runs) starts in the page with the demo seed, in
 * memory (no service worker, no IndexedDB), answers the console's first request (same path and query,
 * signed the same way) through its handlers, and the page renders `rows` rows.
 */
import { getResponse } from 'msw';
import { createEmulator } from '../../mocks/emulator.ts';
import { floorSettings, objectCells, renderRows, showError, signed } from './shared.ts';

async function main(): Promise<void> {
  const settings = floorSettings();
  const domain = new URLSearchParams(location.hash.slice(1)).get('domain') ?? 'qingstor.invalid';
  const emulator = await createEmulator({ seed: 'demo', domains: [domain], defaultZone: 'pek3a' });
  const response = await getResponse(emulator.handlers, new Request(await signed(settings, settings.url)));
  if (!response?.ok) throw new Error(`the emulator answered ${response?.status ?? 'nothing'}`);
  renderRows(objectCells(await response.json(), settings.rows));
}

main().catch(showError);
