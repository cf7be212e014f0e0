import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../api/client.ts';
import { DEMO_CONNECTION } from '../api/connection.ts';
import { bucketKey } from '../api/buckets/queries.ts';
import { firstScreenShown, isFirstScreenShown, type FirstScreenTiming } from './first-screen.tsx';

const timing: FirstScreenTiming = { quietMs: 800, maxMs: 4000, afterPaint: () => Promise.resolve() };

const client = createClient(DEMO_CONNECTION);

/** A query (of one bucket, any will do) whose answer the test gives when it wants. */
function heldQuery(queryClient: QueryClient, bucket: string) {
  let answer: (value: string) => void = () => undefined;
  const done = queryClient.fetchQuery({ queryKey: bucketKey(client, bucket), queryFn: () => new Promise<string>((resolve) => (answer = resolve)) });
  return { answer: (value: string) => answer(value), done };
}

describe('first screen shown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the first data the page asked for, however long it takes, and not for later requests', async () => {
    const queryClient = new QueryClient();
    const listing = heldQuery(queryClient, 'listing');
    const shown = vi.fn<() => void>();
    void firstScreenShown(queryClient, timing).then(shown);
    await vi.advanceTimersByTimeAsync(2000);
    expect(shown).not.toHaveBeenCalled();
    listing.answer('rows');
    await listing.done;
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toHaveBeenCalledOnce();
    expect(isFirstScreenShown(queryClient)).toBe(true);
    // Decided once: a later request does not take it back.
    heldQuery(queryClient, 'later');
    expect(isFirstScreenShown(queryClient)).toBe(true);
  });

  it('counts a screen that asks for nothing as shown once it has stayed quiet', async () => {
    const queryClient = new QueryClient();
    const shown = vi.fn<() => void>();
    void firstScreenShown(queryClient, timing).then(shown);
    await vi.advanceTimersByTimeAsync(799);
    expect(shown).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toHaveBeenCalledOnce();
  });

  it('waits for a request that starts before the quiet time is over', async () => {
    const queryClient = new QueryClient();
    const shown = vi.fn<() => void>();
    void firstScreenShown(queryClient, timing).then(shown);
    await vi.advanceTimersByTimeAsync(500);
    const listing = heldQuery(queryClient, 'listing');
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown).not.toHaveBeenCalled();
    listing.answer('rows');
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toHaveBeenCalledOnce();
  });

  it('never holds the rest of the page back longer than its limit behind a stalled request', async () => {
    const queryClient = new QueryClient();
    heldQuery(queryClient, 'stalled');
    const shown = vi.fn<() => void>();
    void firstScreenShown(queryClient, timing).then(shown);
    await vi.advanceTimersByTimeAsync(3999);
    expect(shown).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toHaveBeenCalledOnce();
  });
});
