// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../api/client.ts';
import type { Connection } from '../../api/connection.ts';
import { ensureLocale, I18nProvider, type Locale } from '../../i18n/i18n.tsx';
import type { LargeCopyOptions } from '../../api/metadata/large-copy.ts';
import { LargeCopyStatus, useLargeCopy } from './large-copy-status.tsx';

const connection: Connection = { endpoint: 'http://127.0.0.1:9000', zoneInHost: false, style: 'path', defaultZone: 'pek3a', copyLimit: 1024 };
const client = createClient(connection);

let started: { signal: AbortSignal; largeCopy: LargeCopyOptions } | undefined;

/** The editor's use of the hook: begin() when Save is pressed; `pending` and `error` as the mutation reports them. */
function Harness({ size }: { size: number }) {
  const state = useLargeCopy(client);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          started = state.begin();
          setPending(true);
          started.signal.addEventListener('abort', () => {
            setPending(false);
            setError(started?.signal.reason);
          });
        }}
      >
        start
      </button>
      <LargeCopyStatus state={state} size={size} pending={pending} error={error} />
    </>
  );
}

function renderIn(locale: Locale, size: number) {
  return render(
    <I18nProvider locale={locale}>
      <Harness size={size} />
    </I18nProvider>,
  );
}

beforeAll(() => ensureLocale('zh-CN'));

describe('LargeCopyStatus', () => {
  it('shows nothing for an object within the copy limit', () => {
    renderIn('en', 1024);
    expect(screen.queryByTestId('large-copy')).toBeNull();
  });

  it('explains the multipart copy, shows progress, and a cancel aborts and says the object is as it was', () => {
    renderIn('en', 4000);
    expect(screen.getByTestId('large-copy').textContent?.replaceAll('\u00A0', ' ')).toContain('This object (3.9 KiB) is larger than one copy can take (1.0 KiB).');
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    expect(started?.largeCopy.copyLimit).toBe(1024);
    act(() => started?.largeCopy.onProgress?.({ phase: 'copying', partsDone: 1, partsTotal: 4, bytesDone: 1024, bytesTotal: 4000, cancellable: true }));
    const bar = screen.getByRole('progressbar', { name: 'Copy progress' });
    expect(bar.getAttribute('aria-valuetext')).toBe('25%');
    expect(screen.getByText('Copied 1 of 4 parts (1.0 KiB of 3.9 KiB).')).toBeTruthy();
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel save' }));
    expect(started?.signal.aborted).toBe(true);
    const leavingLater = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leavingLater);
    expect(leavingLater.defaultPrevented).toBe(false);
    expect(screen.getByText('Save cancelled. The in-progress upload was removed; the object is as it was.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('cannot be cancelled once Complete is sent', () => {
    renderIn('en', 4000);
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    act(() => started?.largeCopy.onProgress?.({ phase: 'completing', partsDone: 4, partsTotal: 4, bytesDone: 4000, bytesTotal: 4000, cancellable: false }));
    expect(screen.getByText('Completing: the object now gets the new metadata.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel save' }).hasAttribute('disabled')).toBe(true);
  });

  it('in Simplified Chinese', () => {
    renderIn('zh-CN', 4000);
    expect(screen.getByTestId('large-copy').textContent?.replaceAll('\u00A0', ' ')).toContain('此对象（3.9 KiB）超过单次复制的上限（1.0 KiB）。');
    fireEvent.click(screen.getByRole('button', { name: 'start' }));
    act(() => started?.largeCopy.onProgress?.({ phase: 'copying', partsDone: 2, partsTotal: 4, bytesDone: 2048, bytesTotal: 4000, cancellable: true }));
    expect(screen.getByRole('progressbar', { name: '复制进度' })).toBeTruthy();
    expect(screen.getByText('已复制 2/4 个分段（2.0 KiB/3.9 KiB）。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '取消保存' }));
    expect(screen.getByText('已取消保存。进行中的上传已删除，对象保持原样。')).toBeTruthy();
  });
});
