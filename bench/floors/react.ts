/**
 * The floor of "JS fetched before the first row": a minimal React app (the repository's own react and
 * react-dom) that fetches the console's first page and renders its rows. Written without JSX so the
 * floors' build needs no plugin.
 */
import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { floorSettings, getJson, objectCells, showError } from './shared.ts';

function Rows() {
  const [cells, setCells] = useState<string[][] | null>(null);
  useEffect(() => {
    const settings = floorSettings();
    getJson(settings, settings.url).then((page) => setCells(objectCells(page, settings.rows)), showError);
  }, []);
  if (!cells) return h('p', null, 'Loading…');
  return h('table', { id: 'rows' }, h('tbody', null, ...cells.map((row) => h('tr', { key: row[0] }, ...row.map((text, i) => h('td', { key: i }, text))))));
}

const root = document.getElementById('root');
if (!root) throw new Error('no #root');
createRoot(root).render(h(Rows));
