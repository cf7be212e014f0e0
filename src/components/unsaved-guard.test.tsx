// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/i18n.tsx';
import { useUnsavedGuard, type GuardWording } from './unsaved-guard.tsx';

const PREVIEW: GuardWording = { title: 'Stop the preview?', body: 'Nothing has been written.', discard: 'Stop and close', keep: 'Don’t stop' };
const RUN: GuardWording = { title: 'Stop the bulk edit?', body: 'Objects being written now finish.', discard: 'Stop and close', keep: 'Don’t stop' };

function Probe({ onClose }: { onClose: () => void }) {
  const guard = useUnsavedGuard(onClose);
  return (
    <>
      <button type="button" onClick={() => guard.setDirty(true, PREVIEW)}>
        preview
      </button>
      <button type="button" onClick={() => guard.setDirty(true, RUN)}>
        run
      </button>
      <button type="button" onClick={() => guard.setDirty(true)}>
        edit
      </button>
      <button type="button" onClick={() => guard.setDirty(false)}>
        finish
      </button>
      <button type="button" onClick={() => guard.requestClose()}>
        close
      </button>
      {guard.confirm}
    </>
  );
}

function renderProbe() {
  const onClose = vi.fn<() => void>();
  render(
    <I18nProvider locale="en">
      <Probe onClose={onClose} />
    </I18nProvider>,
  );
  const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
  return { onClose, click };
}

describe('useUnsavedGuard', () => {
  it('asks in the words of the work under way, and the words follow it while the question is open', () => {
    const { onClose, click } = renderProbe();
    click('preview');
    click('close');
    expect(screen.getByRole('alertdialog', { name: 'Stop the preview?' }).textContent).toContain('Nothing has been written.');
    // The preview became a run while the question was open: the question now speaks of the run.
    click('run');
    expect(screen.getByRole('alertdialog', { name: 'Stop the bulk edit?' }).textContent).toContain('Objects being written now finish.');
    expect(screen.queryByRole('alertdialog', { name: 'Stop the preview?' })).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    click('Stop and close');
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('without words of its own, asks about unsaved edits', () => {
    const { click } = renderProbe();
    click('edit');
    click('close');
    expect(screen.getByRole('alertdialog', { name: 'Discard unsaved changes?' })).toBeTruthy();
  });

  it('drops the question once nothing is at stake, and then closes without asking', () => {
    const { onClose, click } = renderProbe();
    click('run');
    click('close');
    expect(screen.getByRole('alertdialog', { name: 'Stop the bulk edit?' })).toBeTruthy();
    click('finish');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    click('close');
    expect(onClose).toHaveBeenCalledOnce();
  });
});
