import { useEffect, useReducer, type ComponentType, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { Loading } from './spinner.tsx';

/**
 * A component whose code loads on first render, like React.lazy, but without Suspense: React holds back
 * content that replaces a Suspense fallback for up to 300 ms after the fallback appeared, which made every
 * first screen 300 ms slower than its code and data (bench/browse.ts). Here the fallback shows while the
 * chunk loads and the component renders as soon as it is there; once loaded it renders at once, and a
 * failed load says so with a retry instead of leaving a spinner.
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { fallback?: 'loading' | 'none' } = {},
): ComponentType<P> & { preload: () => Promise<void> } {
  let Loaded: ComponentType<P> | undefined;
  let failure: unknown;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        Loaded = component;
        failure = undefined;
      },
      (error: unknown) => {
        failure = error;
        pending = undefined;
      },
    ));

  function LazyView(props: P) {
    const [, rerender] = useReducer((n: number) => n + 1, 0);
    // Start the download while rendering (as React.lazy does), not after the commit; `preload` is idempotent.
    if (!Loaded && failure === undefined) void preload();
    const showing = Loaded ? 'view' : failure === undefined ? 'fallback' : 'failure';
    useEffect(() => {
      if (showing !== 'fallback') return;
      // The load may have settled between this render and now (it started early): then re-render at once.
      if (Loaded || failure !== undefined) {
        rerender();
        return;
      }
      let live = true;
      void preload().then(() => live && rerender());
      return () => {
        live = false;
      };
    }, [showing]);
    if (Loaded) return <Loaded {...props} />;
    if (failure !== undefined) {
      return (
        <LoadFailed
          error={failure}
          onRetry={() => {
            failure = undefined;
            rerender();
          }}
        />
      );
    }
    return options.fallback === 'none' ? null : <LoadingView />;
  }
  return Object.assign(LazyView, { preload });
}

function LoadingView(): ReactNode {
  const { t } = useI18n();
  return <Loading label={t('app.loading')} />;
}

function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <div className="notice notice--error" role="alert">
      <p>{t('app.loadFailed', { message: error instanceof Error ? error.message : String(error) })}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/**
 * Downloads the code of `views` a while after this component mounted, when the page is idle, so the first
 * open of a panel or dialog does not wait for the network. Not sooner: while a screen waits for its first
 * data the page is idle too, and the download would compete with the screen itself.
 */
export function usePreloadWhenIdle(views: readonly { preload: () => Promise<void> }[], afterMs = 2000): void {
  useEffect(() => {
    let idle: number | undefined;
    const timer = setTimeout(() => {
      const run = () => {
        for (const view of views) void view.preload();
      };
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: 5000 });
      else run();
    }, afterMs);
    return () => {
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [views, afterMs]);
}
