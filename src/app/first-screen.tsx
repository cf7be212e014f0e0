import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * "The first screen is shown": the data the page asked for first has arrived and a frame has painted it.
 * What the first screen does not need (the top bar's theme and upload controls, the sidebar, the upload
 * drawer, the toolbar's extras, the toasts) waits for this before its code is even requested
 * (`AfterFirstScreen`), so the first rows do not share the network and the main thread with a score of
 * chunks they never use.
 *
 * Read from the query cache, so it needs no help from the views: once every query that was fetching has
 * settled, after at least one fetched (a deep link's first page is already on its way when the app
 * renders, main.tsx). A screen that fetches nothing (Connect) counts as shown after `quietMs`; a stalled
 * request never holds the rest back longer than `maxMs`. Decided once per query client: later screens find
 * it shown.
 */
export interface FirstScreenTiming {
  quietMs: number;
  maxMs: number;
  /** Resolves after the next paint. */
  afterPaint: () => Promise<void>;
}

function nextPaint(): Promise<void> {
  // The data's arrival is not its paint: React renders the rows in a task of its own after it. The page is
  // idle once they are rendered and painted (a frame, then an idle period); a busy page waits no longer
  // than a second.
  return new Promise((resolve) => {
    const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 1000 }) : setTimeout(resolve, 0));
    if (typeof requestAnimationFrame !== 'function') idle();
    else requestAnimationFrame(() => setTimeout(idle, 0));
  });
}

export const FIRST_SCREEN_TIMING: FirstScreenTiming = { quietMs: 800, maxMs: 4000, afterPaint: nextPaint };

const shown = new WeakMap<QueryClient, { done: boolean; promise: Promise<void> }>();

export function firstScreenShown(queryClient: QueryClient, timing: FirstScreenTiming = FIRST_SCREEN_TIMING): Promise<void> {
  let entry = shown.get(queryClient);
  if (!entry) {
    const state = { done: false, promise: Promise.resolve() };
    state.promise = watch(queryClient, timing).then(() => {
      state.done = true;
    });
    entry = state;
    shown.set(queryClient, entry);
  }
  return entry.promise;
}

export function isFirstScreenShown(queryClient: QueryClient): boolean {
  return shown.get(queryClient)?.done === true;
}

function watch(queryClient: QueryClient, timing: FirstScreenTiming): Promise<void> {
  return new Promise<void>((resolve) => {
    let fetched = queryClient.isFetching() > 0;
    let settled = false;
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    const finish = () => {
      if (settled) return;
      settled = true;
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      void timing.afterPaint().then(resolve);
    };
    const unsubscribe = queryClient.getQueryCache().subscribe(() => {
      // The cache notifies before observers re-render: count once the notification has run its course.
      queueMicrotask(() => {
        if (queryClient.isFetching() > 0) fetched = true;
        else if (fetched) finish();
      });
    });
    timers.push(
      setTimeout(() => {
        if (!fetched) finish();
      }, timing.quietMs),
      setTimeout(finish, timing.maxMs),
    );
  });
}

/** Renders `children` once the first screen is shown (`fallback` until then). */
export function AfterFirstScreen({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const queryClient = useQueryClient();
  const [ready, setReady] = useState(() => isFirstScreenShown(queryClient));
  useEffect(() => {
    if (ready) return;
    let live = true;
    void firstScreenShown(queryClient).then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [queryClient, ready]);
  return ready ? children : fallback;
}

/**
 * Downloads the code of `views` (dialogs, editors, the selection's actions) once the first screen is shown
 * and the page is idle: not beside the first rows, and not seconds later either, when the user may already
 * be selecting.
 */
export function usePreloadAfterFirstScreen(views: readonly { preload: () => Promise<void> }[]): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let live = true;
    void firstScreenShown(queryClient).then(() => {
      if (!live) return;
      for (const view of views) void view.preload();
    });
    return () => {
      live = false;
    };
  }, [queryClient, views]);
}
