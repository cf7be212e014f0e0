import { describe, expect, it } from 'vitest';
import type { JobEntry } from '../engine/host.ts';
import type { JobPhase } from '../engine/machine.ts';
import { jobsThatStopped } from './use-jobs.ts';

function entry(id: string, phase: JobPhase | undefined, updatedAt: number): JobEntry {
  const record = { id, updatedAt } as JobEntry['record'];
  const live = phase === undefined ? undefined : ({ record, phase } as JobEntry['live']);
  return { record, live, elsewhere: false };
}

const ids = (entries: readonly JobEntry[]) => entries.map((e) => e.record.id);

describe('jobsThatStopped', () => {
  it('names a job once when it goes from running to finished, and not again while it stays there', () => {
    const seen = new Map<string, string>();
    expect(ids(jobsThatStopped(seen, [entry('a', 'running', 1)]))).toEqual([]);
    expect(ids(jobsThatStopped(seen, [entry('a', 'finished', 2)]))).toEqual(['a']);
    expect(ids(jobsThatStopped(seen, [entry('a', 'finished', 2)]))).toEqual([]);
  });

  it('names a retry that ran between two published states (finished, then finished again with a later save)', () => {
    const seen = new Map<string, string>();
    jobsThatStopped(seen, [entry('a', 'running', 1)]);
    expect(ids(jobsThatStopped(seen, [entry('a', 'finished', 2)]))).toEqual(['a']);
    expect(ids(jobsThatStopped(seen, [entry('a', 'finished', 5)]))).toEqual(['a']);
  });

  it('leaves alone jobs first seen already stopped (loaded with the page) and jobs this tab never ran', () => {
    const seen = new Map<string, string>();
    expect(ids(jobsThatStopped(seen, [entry('a', 'finished', 1), entry('b', undefined, 1)]))).toEqual([]);
    expect(ids(jobsThatStopped(seen, [entry('a', 'paused', 3), entry('b', undefined, 2)]))).toEqual(['a']);
  });
});
