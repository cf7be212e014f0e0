// @vitest-environment jsdom
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/i18n.tsx';
import { dismissToast, toast, Toaster } from './toast.tsx';

function region() {
  return screen.getByRole('region', { name: 'Notifications' });
}

describe('toasts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('announces in a live region that is there before the first toast, as text; a request id only on a failure', async () => {
    render(
      <I18nProvider locale="en">
        <Toaster />
      </I18nProvider>,
    );
    const live = within(region()).getByRole('status');
    expect(live.children).toHaveLength(0);
    let id = 0;
    act(() => {
      id = toast('Copied to <img src=x onerror=alert(1)>.', { requestId: 'req-123' });
    });
    expect(live.textContent).toContain('Copied to <img src=x onerror=alert(1)>.');
    expect(live.querySelector('img')).toBeNull();
    // A success says what was done; the request id is for failures.
    expect(live.textContent).not.toContain('req-123');
    await userEvent.click(within(live).getByRole('button', { name: 'Close' }));
    expect(live.children).toHaveLength(0);
    act(() => dismissToast(id));
    act(() => {
      id = toast('Could not copy.', { requestId: 'req-456', tone: 'error' });
    });
    expect(live.textContent).toContain('Request ID: req-456');
    act(() => dismissToast(id));
  });

  it('goes after 8 s unless the pointer or focus is on its close button; at most 4 are shown', () => {
    vi.useFakeTimers();
    render(
      <I18nProvider locale="en">
        <Toaster />
      </I18nProvider>,
    );
    const live = within(region()).getByRole('status');
    act(() => {
      for (let i = 1; i <= 5; i++) toast(`done ${i}`);
    });
    expect(within(live).getAllByTestId('toast').map((t) => t.textContent?.replace('×', ''))).toEqual(['done 2', 'done 3', 'done 4', 'done 5']);
    const held = within(live).getAllByRole('button', { name: 'Close' })[3]!;
    act(() => held.focus());
    act(() => vi.advanceTimersByTime(8_000));
    expect(within(live).getAllByTestId('toast').map((t) => t.textContent?.replace('×', ''))).toEqual(['done 5']);
    act(() => held.blur());
    act(() => vi.advanceTimersByTime(8_000));
    expect(live.children).toHaveLength(0);
  });

  it('waits while a modal dialog covers it', () => {
    vi.useFakeTimers();
    render(
      <I18nProvider locale="en">
        <Toaster />
      </I18nProvider>,
    );
    const live = within(region()).getByRole('status');
    const dialog = document.createElement('dialog');
    document.body.append(dialog);
    // jsdom has no showModal: the selector the toast asks is answered as a browser would with a modal open.
    const query = vi.spyOn(document, 'querySelector').mockImplementation((selector: string) => (selector === 'dialog:modal' ? dialog : null));
    act(() => {
      toast('copied');
    });
    act(() => vi.advanceTimersByTime(20_000));
    expect(live.textContent).toContain('copied');
    query.mockRestore();
    act(() => vi.advanceTimersByTime(1_000));
    expect(live.children).toHaveLength(0);
    dialog.remove();
  });

  it('offers its action (Undo), runs it once when pressed and closes; with an action it stays 15 s', async () => {
    render(
      <I18nProvider locale="en">
        <Toaster />
      </I18nProvider>,
    );
    const live = within(region()).getByRole('status');
    const run = vi.fn<() => void>();
    act(() => {
      toast('Saved.', { action: { label: 'Undo', run } });
    });
    await userEvent.click(within(live).getByRole('button', { name: 'Undo' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(live.children).toHaveLength(0);

    vi.useFakeTimers();
    act(() => {
      toast('Saved again.', { action: { label: 'Undo', run } });
    });
    act(() => vi.advanceTimersByTime(8_000));
    expect(live.textContent).toContain('Saved again.');
    act(() => vi.advanceTimersByTime(7_000));
    expect(live.children).toHaveLength(0);
  });
});
