import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { invalidateObjectWrites } from '../../../api/objects/queries.ts';
import { useConnectedSession } from '../../../hooks/session.ts';
import { useClient } from '../../../hooks/use-client.ts';
import type { JobClient, JobEntry, JobHost, JobsState } from '../engine/host.ts';

/** The signing client of the session, and whether it is the demo (which reads every header). */
export function useJobClient(): JobClient {
  const client = useClient();
  const session = useConnectedSession();
  const demo = session.mode === 'demo';
  return useMemo(() => ({ client, demo }), [client, demo]);
}

/** The jobs of the session's connection, as the host last published them (at most a few times a second). */
export function useJobsState(host: JobHost): JobsState {
  const { client } = useJobClient();
  useEffect(() => {
    void host.open(client);
  }, [host, client]);
  return useSyncExternalStore(
    (listener) => host.subscribe(listener),
    () => host.state(),
    () => host.state(),
  );
}

export function useJobEntry(host: JobHost, id: string | null): JobEntry | undefined {
  const state = useJobsState(host);
  return id === null ? undefined : state.entries.find((entry) => entry.record.id === id);
}

/**
 * The entries whose job stopped (finished, paused, cancelled or failed) since `seen` last looked, which it
 * then remembers. A run is told apart by its phase and the record's last save: the host publishes a few
 * times a second, so a retry of one object can go from finished to finished between two states, and it
 * still wrote. Jobs seen for the first time (loaded with the page) did nothing in this tab.
 */
export function jobsThatStopped(seen: Map<string, string>, entries: readonly JobEntry[]): JobEntry[] {
  const stoppedNow: JobEntry[] = [];
  for (const entry of entries) {
    const phase = entry.live?.phase;
    if (phase === undefined) continue;
    const mark = `${phase}@${entry.record.updatedAt}`;
    const before = seen.get(entry.record.id);
    seen.set(entry.record.id, mark);
    const stopped = phase === 'finished' || phase === 'paused' || phase === 'cancelled' || phase === 'failed';
    if (stopped && before !== undefined && before !== mark) stoppedNow.push(entry);
  }
  return stoppedNow;
}

/**
 * Refreshes the listings and details of the buckets a job wrote to, each time a job of this tab stops:
 * what the browser shows then holds what the job did.
 */
export function useRefreshAfterJobs(host: JobHost): void {
  const state = useJobsState(host);
  const queryClient = useQueryClient();
  const { client } = useJobClient();
  const seen = useRef(new Map<string, string>());
  useEffect(() => {
    for (const entry of jobsThatStopped(seen.current, state.entries)) {
      const op = entry.record.operation;
      void invalidateObjectWrites(queryClient, client, entry.record.bucket);
      if ((op.kind === 'copy' || op.kind === 'move') && op.destination.bucket !== entry.record.bucket) void invalidateObjectWrites(queryClient, client, op.destination.bucket);
    }
  }, [state, queryClient, client]);
}
