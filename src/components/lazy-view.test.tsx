// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../i18n/i18n.tsx';
import { lazyView, usePreloadWhenIdle } from './lazy-view.tsx';

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyView', () => {
  it('shows the loading state until the code is there, then the view with its props', async () => {
    const code = deferred<typeof Hello>();
    let calls = 0;
    const View = lazyView(() => {
      calls += 1;
      return code.promise;
    });
    render(
      <I18nProvider locale="en">
        <View name="Ada" />
      </I18nProvider>,
    );
    expect(screen.getByRole('status').textContent).toContain('Loading…');
    await act(async () => code.resolve(Hello));
    expect(screen.getByText('Hello Ada')).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
    // Loaded once: later instances render at once, without loading again.
    render(
      <I18nProvider locale="en">
        <View name="Grace" />
      </I18nProvider>,
    );
    expect(screen.getByText('Hello Grace')).toBeDefined();
    expect(calls).toBe(1);
  });

  it('renders at once when preloaded, and shows nothing while loading with fallback "none"', async () => {
    const View = lazyView(async () => Hello, { fallback: 'none' });
    const { container } = render(
      <I18nProvider locale="en">
        <View name="x" />
      </I18nProvider>,
    );
    expect(container.textContent).toBe('');
    await act(async () => View.preload());
    expect(screen.getByText('Hello x')).toBeDefined();
  });

  it('says in words when the code cannot load, and loads again on retry', async () => {
    let attempt = 0;
    const View = lazyView(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error('Failed to fetch dynamically imported module');
      return Hello;
    });
    render(
      <I18nProvider locale="en">
        <View name="again" />
      </I18nProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This part of the console could not load (Failed to fetch dynamically imported module)');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello again')).toBeDefined();
    expect(attempt).toBe(2);
  });

  it('usePreloadWhenIdle downloads the views a while after mount, not before, and not after unmount', () => {
    vi.useFakeTimers();
    try {
      let loads = 0;
      // A screen that preloads one fresh lazy view (each counts its downloads into `loads`).
      const screenPreloadingOneView = () => {
        const views = [
          lazyView(async () => {
            loads += 1;
            return Hello;
          }),
        ];
        return function Screen() {
          usePreloadWhenIdle(views, 2000);
          return null;
        };
      };
      const Screen = screenPreloadingOneView();
      const first = render(<Screen />);
      vi.advanceTimersByTime(1999);
      expect(loads).toBe(0);
      vi.advanceTimersByTime(1);
      // jsdom has no requestIdleCallback: the download starts when the delay ends.
      expect(loads).toBe(1);
      first.unmount();

      const Gone = screenPreloadingOneView();
      render(<Gone />).unmount();
      vi.advanceTimersByTime(5000);
      expect(loads).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
