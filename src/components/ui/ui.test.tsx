// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../../i18n/i18n.tsx';
import { DataTable, type SortState } from './data-table.tsx';
import { Field } from './field.tsx';
import { IconButton } from './icon-button.tsx';
import { TypedConfirm } from './typed-confirm.tsx';

function inEnglish(node: React.ReactNode) {
  return render(<I18nProvider locale="en">{node}</I18nProvider>);
}

describe('design system components', () => {
  it('Field ties its description, rule and error to the control, all visible', () => {
    inEnglish(
      <Field label="Cache-Control" description="How long browsers keep a copy." constraint="Printable ASCII." error="Not allowed here.">
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Cache-Control' });
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['How long browsers keep a copy.', 'Printable ASCII.', 'Not allowed here.']);
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('IconButton is named by its label and shows the same words as its tooltip', () => {
    inEnglish(<IconButton label="Bucket settings" icon={<svg />} />);
    const button = screen.getByRole('button', { name: 'Bucket settings' });
    expect(button.getAttribute('data-tip')).toBe('Bucket settings');
    expect(button.getAttribute('type')).toBe('button');
  });

  it('TypedConfirm confirms only once the exact phrase is typed', async () => {
    const onConfirm = vi.fn<() => void>();
    inEnglish(<TypedConfirm consequence={<p>Anyone can read every object.</p>} phrase="demo-photos" confirmLabel="Make public" onConfirm={onConfirm} onCancel={() => {}} />);
    const confirm = screen.getByRole('button', { name: 'Make public' });
    const input = screen.getByRole('textbox', { name: 'Type demo-photos to confirm' });
    expect(document.activeElement).toBe(input);
    await userEvent.type(input, 'demo-photo');
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(input, 's{Enter}');
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await userEvent.clear(input);
    await userEvent.type(input, 'DEMO-PHOTOS{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('DataTable sorts by its header buttons, selects all, and shows its empty state instead of rows', async () => {
    const rows = [{ name: 'b' }, { name: 'a' }];
    function Harness({ data }: { data: typeof rows }) {
      const [sort, setSort] = useState<SortState>({ column: 'name', direction: 'ascending' });
      const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
      const sorted = [...data].sort((x, y) => (sort.direction === 'ascending' ? 1 : -1) * x.name.localeCompare(y.name));
      return (
        <DataTable
          label="Buckets"
          title="Buckets"
          count={`${data.length} buckets`}
          columns={[{ id: 'name', header: 'Name', renderCell: (row) => row.name, sortable: true, rowHeader: true }]}
          rows={sorted}
          rowKey={(row) => row.name}
          sort={sort}
          onSort={setSort}
          selection={{ selected, onChange: setSelected }}
          empty={<p>No buckets yet.</p>}
        />
      );
    }
    const { rerender } = inEnglish(<Harness data={rows} />);
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['a', 'b']);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['b', 'a']);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows' }));
    expect((screen.getByRole('checkbox', { name: 'Select a' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Select b' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('2 buckets').tagName).toBe('OUTPUT');
    rerender(
      <I18nProvider locale="en">
        <Harness data={[]} />
      </I18nProvider>,
    );
    expect(within(screen.getByRole('table')).getByText('No buckets yet.')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Select all rows' }) as HTMLInputElement).disabled).toBe(true);
  });
});
