import { array, assert, constantFrom, property } from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accepts, isActive, storedStatusOf, transition, type JobEvent, type JobPhase } from './machine.ts';

const PHASES: readonly JobPhase[] = ['idle', 'running', 'pausing', 'paused', 'cancelling', 'cancelled', 'finished', 'failed'];
const TYPES: readonly JobEvent['type'][] = ['start', 'pause', 'resume', 'cancel', 'drained', 'exhausted', 'fatal', 'retry'];
const EVENTS: readonly JobEvent[] = TYPES.map((type) => ({ type }));

function run(phase: JobPhase, ...types: JobEvent['type'][]): JobPhase {
  return types.reduce((p, type) => transition(p, { type }), phase);
}

describe('job machine', () => {
  it('runs, pauses (in-flight objects drain first), resumes and finishes', () => {
    expect(run('idle', 'start')).toBe('running');
    expect(run('idle', 'start', 'pause')).toBe('pausing');
    expect(run('idle', 'start', 'pause', 'drained')).toBe('paused');
    expect(run('idle', 'start', 'pause', 'drained', 'resume')).toBe('running');
    // Resumed before the objects in flight drained: it never stopped.
    expect(run('idle', 'start', 'pause', 'resume')).toBe('running');
    expect(run('idle', 'start', 'exhausted')).toBe('finished');
  });

  it('cancels: at once when nothing is in flight, after the drain otherwise; a cancelled job can go on later', () => {
    expect(run('idle', 'start', 'cancel')).toBe('cancelling');
    expect(run('idle', 'start', 'cancel', 'drained')).toBe('cancelled');
    expect(run('idle', 'start', 'pause', 'drained', 'cancel')).toBe('cancelled');
    expect(run('idle', 'cancel')).toBe('cancelled');
    // A cancel during a pause wins: the job ends cancelled, not paused.
    expect(run('idle', 'start', 'pause', 'cancel', 'drained')).toBe('cancelled');
    expect(run('idle', 'start', 'cancel', 'drained', 'resume')).toBe('running');
  });

  it('retries only a job that is over; a fatal error fails a running job', () => {
    expect(run('idle', 'start', 'exhausted', 'retry')).toBe('running');
    expect(run('idle', 'start', 'retry')).toBe('running');
    expect(run('idle', 'start', 'fatal')).toBe('failed');
    expect(run('idle', 'start', 'fatal', 'resume')).toBe('running');
    expect(run('idle', 'fatal')).toBe('idle');
  });

  it('ignores what a phase does not accept, returning the same phase', () => {
    expect(transition('finished', { type: 'pause' })).toBe('finished');
    expect(transition('paused', { type: 'exhausted' })).toBe('paused');
    expect(accepts('finished', { type: 'pause' })).toBe(false);
    expect(accepts('running', { type: 'pause' })).toBe(true);
  });

  it('never leaves the known phases, and only running, pausing and cancelling are active', () => {
    assert(
      property(array(constantFrom(...EVENTS), { maxLength: 40 }), (events) => {
        let phase: JobPhase = 'idle';
        for (const event of events) {
          const next = transition(phase, event);
          expect(PHASES).toContain(next);
          // A job that is over moves only on an explicit resume or retry.
          expect(phase !== 'finished' || next === phase || event.type === 'retry').toBe(true);
          phase = next;
        }
      }),
    );
    expect(PHASES.filter(isActive)).toEqual(['running', 'pausing', 'cancelling']);
  });

  it('maps each phase to what the journal keeps', () => {
    expect(storedStatusOf('pausing', 'paused')).toBe('running');
    expect(storedStatusOf('cancelling', 'running')).toBe('cancelled');
    expect(storedStatusOf('idle', 'paused')).toBe('paused');
  });
});
