/**
 * A job's life in the tab that runs it, as a pure state machine: every change goes through `transition`;
 * an event a phase does not accept returns the same phase (the same object), so a late or repeated click
 * can never put a job in an impossible state. The runner (runner.ts) feeds it the user's events and its
 * own (`drained`, `exhausted`, `fatal`).
 *
 *   idle        --start-->            running      (a new job, or one found in the journal)
 *   running     --pause-->            pausing      (no new object starts; those in flight finish)
 *   pausing     --drained-->          paused
 *   pausing, paused --resume-->       running
 *   running, pausing --cancel-->      cancelling   (no new request; those in flight finish)
 *   idle, paused --cancel-->          cancelled    (nothing in flight)
 *   cancelling  --drained-->          cancelled
 *   running, pausing --exhausted-->   finished     (the source is done and nothing is in flight)
 *   cancelling  --exhausted-->        cancelled
 *   running, pausing, cancelling --fatal--> failed (the listing failed, or every object fails alike)
 *   cancelled, failed --resume-->     running      (the same pass goes on from where it stopped)
 *   idle, finished, cancelled, failed --retry--> running (a pass over the failed objects)
 */
import type { StoredStatus } from './types.ts';

export type JobPhase = 'idle' | 'running' | 'pausing' | 'paused' | 'cancelling' | 'cancelled' | 'finished' | 'failed';

export type JobEvent =
  | { readonly type: 'start' }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' }
  | { readonly type: 'cancel' }
  | { readonly type: 'drained' }
  | { readonly type: 'exhausted' }
  | { readonly type: 'fatal' }
  | { readonly type: 'retry' };

export function transition(phase: JobPhase, event: JobEvent): JobPhase {
  switch (event.type) {
    case 'start':
      return phase === 'idle' ? 'running' : phase;
    case 'pause':
      return phase === 'running' ? 'pausing' : phase;
    case 'drained':
      if (phase === 'pausing') return 'paused';
      if (phase === 'cancelling') return 'cancelled';
      return phase;
    case 'resume':
      return phase === 'pausing' || phase === 'paused' || phase === 'cancelled' || phase === 'failed' ? 'running' : phase;
    case 'cancel':
      if (phase === 'running' || phase === 'pausing') return 'cancelling';
      if (phase === 'idle' || phase === 'paused') return 'cancelled';
      return phase;
    case 'exhausted':
      if (phase === 'running' || phase === 'pausing') return 'finished';
      if (phase === 'cancelling') return 'cancelled';
      return phase;
    case 'fatal':
      return phase === 'running' || phase === 'pausing' || phase === 'cancelling' ? 'failed' : phase;
    case 'retry':
      return phase === 'idle' || phase === 'finished' || phase === 'cancelled' || phase === 'failed' ? 'running' : phase;
  }
}

/** Whether `event` changes `phase` (for enabling buttons). */
export function accepts(phase: JobPhase, event: JobEvent): boolean {
  return transition(phase, event) !== phase;
}

/** True while objects may still be started or are in flight in this tab. */
export function isActive(phase: JobPhase): boolean {
  return phase === 'running' || phase === 'pausing' || phase === 'cancelling';
}

/** What the journal keeps for a phase; `idle` keeps whatever was stored. */
export function storedStatusOf(phase: JobPhase, stored: StoredStatus): StoredStatus {
  switch (phase) {
    case 'idle':
      return stored;
    case 'running':
    case 'pausing':
      return 'running';
    case 'paused':
      return 'paused';
    case 'cancelling':
    case 'cancelled':
      return 'cancelled';
    case 'finished':
      return 'finished';
    case 'failed':
      return 'failed';
  }
}
