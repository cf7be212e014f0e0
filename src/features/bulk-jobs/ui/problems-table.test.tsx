// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '../../../i18n/i18n.tsx';
import type { ProblemRow } from '../engine/progress.ts';
import { ProblemsTable } from './problems-table.tsx';

// jsdom lays nothing out: the scrolling box gets a screen's height and each row its fixed height, so the
// virtualized table renders what a browser would.
const layoutHeight = (element: HTMLElement) => (element.classList.contains('job-problems') ? 400 : element.tagName === 'TR' ? 52 : 0);
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get(this: HTMLElement) { return layoutHeight(this); } });
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get(this: HTMLElement) { return layoutHeight(this); } });
Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get() { return 800; } });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get() { return 800; } });

function rows(n: number): ProblemRow[] {
  return Array.from({ length: n }, (_, i) => (i % 2 === 0 ? { key: `logs/o-${i}.json`, state: 'failed', code: 'not_found', requestId: `req${i}` } : { key: `logs/o-${i}.json`, state: 'skipped', code: 'changed_since' }));
}

describe('ProblemsTable', () => {
  it('keeps a few dozen rows in the DOM for 50,000 problems, with the table semantics of the whole list', () => {
    render(
      <I18nProvider>
        <ProblemsTable rows={rows(50_000)} beyond={0} version={1} />
      </I18nProvider>,
    );
    const table = screen.getByRole('table', { name: 'Skipped and failed objects' });
    expect(table.getAttribute('aria-rowcount')).toBe('50001');
    const bodyRows = table.querySelectorAll('tbody tr[data-status]');
    expect(bodyRows.length).toBeGreaterThan(5);
    expect(bodyRows.length).toBeLessThan(40);
    const first = within(table).getByRole('row', { name: /logs\/o-0\.json/ });
    expect(first.getAttribute('data-status')).toBe('failed');
    expect(within(first).getByRole('alert').textContent).toContain('not_found');
    expect(within(first).getByTestId('request-id').textContent).toContain('req0');
    expect(within(table).getByRole('row', { name: /logs\/o-1\.json/ }).textContent).toContain('Someone else changed it since it was read');
  });

  it('shows a key with a right-to-left override as code points, never reordered', () => {
    render(
      <I18nProvider>
        <ProblemsTable rows={[{ key: 'invoice\u202efdp.exe', state: 'failed', code: 'permission_denied' }]} beyond={3} version={1} />
      </I18nProvider>,
    );
    expect(screen.getByRole('rowheader').textContent).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(screen.getByText('3 more are not shown here; the report lists every object.')).toBeTruthy();
  });

  it('says so when nothing was skipped or failed', () => {
    render(
      <I18nProvider>
        <ProblemsTable rows={[]} beyond={0} version={0} />
      </I18nProvider>,
    );
    expect(screen.getByText('No object was skipped or failed.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
