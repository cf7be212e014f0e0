/**
 * One order for every dialog's footer: Cancel (or Close) first, the dialog's action last, as the design
 * system's typed confirmation (src/components/ui/typed-confirm.tsx) lays it out. Read from the source: each
 * `dialog__actions` block, its buttons in document order, which is also their focus order.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx') ? [full] : [];
  });
}

/** Each footer's buttons, in order: 'action' (primary or danger), 'dismiss' (Cancel, Close) or 'other'. */
export function footers(source: string): Array<Array<'action' | 'dismiss' | 'other'>> {
  const found: Array<Array<'action' | 'dismiss' | 'other'>> = [];
  const opener = /<div className="dialog__actions">/g;
  for (let match = opener.exec(source); match; match = opener.exec(source)) {
    // The block ends at the first closing </div> at its own depth.
    let depth = 1;
    let at = match.index + match[0].length;
    const tag = /<div\b|<\/div>/g;
    tag.lastIndex = at;
    for (let t = tag.exec(source); t; t = tag.exec(source)) {
      depth += t[0] === '</div>' ? -1 : 1;
      if (depth === 0) {
        at = t.index;
        break;
      }
    }
    const block = source.slice(match.index, at);
    const buttons = [...block.matchAll(/<(?:button|Button)\b([\s\S]*?)<\/(?:button|Button)>/g)].map(([whole]) => {
      if (/button--primary|button--danger|variant=\{?['"]?(primary|danger)/.test(whole)) return 'action' as const;
      if (/common\.cancel|common\.close|picker\.cancel/.test(whole)) return 'dismiss' as const;
      return 'other' as const;
    });
    found.push(buttons);
  }
  // The design system's ActionRow (and the settings pages' admin-actions rows) hold footers too.
  const rows = /<ActionRow\b[^>]*>([\s\S]*?)<\/ActionRow>|<div className="admin-actions">([\s\S]*?)<\/div>/g;
  for (let match = rows.exec(source); match; match = rows.exec(source)) found.push(kinds(match[1] ?? match[2] ?? ''));
  return found;
}

function kinds(block: string): Array<'action' | 'dismiss' | 'other'> {
  return [...block.matchAll(/<(?:button|Button)\b([\s\S]*?)<\/(?:button|Button)>/g)].map(([whole]) => {
    if (/button--primary|button--danger|admin-danger|variant=\{?['"]?(primary|danger)/.test(whole)) return 'action' as const;
    if (/common\.cancel|common\.close|picker\.cancel/.test(whole)) return 'dismiss' as const;
    return 'other' as const;
  });
}

describe('dialog footers', () => {
  it('finds the order in a footer', () => {
    const good = `<div className="dialog__actions">\n<button className="button" onClick={c}>{t('common.cancel')}</button>\n<button type="submit" className="button button--primary">{t('x')}</button>\n</div>`;
    const bad = `<div className="dialog__actions">\n<button type="submit" className="button button--primary">{t('x')}</button>\n<button className="button">{t('common.cancel')}</button>\n</div>`;
    expect(footers(good)).toEqual([['dismiss', 'action']]);
    expect(footers(bad)).toEqual([['action', 'dismiss']]);
    const row = `<ActionRow>\n<Button variant="danger" onClick={go}>{t('x')}</Button>\n<Button onClick={c}>{t('common.cancel')}</Button>\n</ActionRow>`;
    expect(footers(row)).toEqual([['action', 'dismiss']]);
  });

  it('puts Cancel or Close before the action in every dialog of the console', () => {
    const wrong: string[] = [];
    for (const file of sources(path.join(root, 'src'))) {
      for (const buttons of footers(readFileSync(file, 'utf8'))) {
        const dismiss = buttons.indexOf('dismiss');
        const action = buttons.lastIndexOf('action');
        if (dismiss !== -1 && action !== -1 && dismiss > action) wrong.push(`${path.relative(root, file)}: ${buttons.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
