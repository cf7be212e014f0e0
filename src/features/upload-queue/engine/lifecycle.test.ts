import { describe, expect, it } from 'vitest';
import { transition, type Lifecycle, type LifecycleEvent, type LifecycleEventType } from './lifecycle.ts';

const boom = new Error('boom');
const earlier = new Error('earlier');
const abortError = new Error('abort refused');

const STATES: Record<string, Lifecycle> = {
  queued: { state: 'queued' },
  running: { state: 'running', stopping: undefined },
  'running, pausing': { state: 'running', stopping: 'pause' },
  'running, cancelling': { state: 'running', stopping: 'cancel' },
  paused: { state: 'paused' },
  done: { state: 'done', etag: '"e"' },
  failed: { state: 'failed', error: earlier },
  cancelled: { state: 'cancelled', error: undefined },
  removed: { state: 'removed' },
};

const EVENTS: Record<LifecycleEventType, LifecycleEvent> = {
  start: { type: 'start' },
  pause: { type: 'pause' },
  resume: { type: 'resume' },
  cancel: { type: 'cancel' },
  retry: { type: 'retry' },
  remove: { type: 'remove' },
  succeeded: { type: 'succeeded', etag: '"new"' },
  ended: { type: 'ended', error: boom },
  abortFailed: { type: 'abortFailed', error: abortError },
};

const EVENT_TYPES = ['start', 'pause', 'resume', 'cancel', 'retry', 'remove', 'succeeded', 'ended', 'abortFailed'] as const satisfies readonly LifecycleEventType[];

/** Every allowed transition; any (state, event) pair missing here must leave the state as it is. */
const ALLOWED: Record<string, Partial<Record<LifecycleEventType, Lifecycle>>> = {
  queued: {
    start: { state: 'running', stopping: undefined },
    pause: { state: 'paused' },
    cancel: { state: 'cancelled', error: undefined },
    remove: { state: 'removed' },
  },
  running: {
    pause: { state: 'running', stopping: 'pause' },
    cancel: { state: 'running', stopping: 'cancel' },
    succeeded: { state: 'done', etag: '"new"' },
    ended: { state: 'failed', error: boom },
  },
  'running, pausing': {
    cancel: { state: 'running', stopping: 'cancel' },
    succeeded: { state: 'done', etag: '"new"' },
    ended: { state: 'paused' },
  },
  'running, cancelling': {
    succeeded: { state: 'done', etag: '"new"' },
    ended: { state: 'cancelled', error: undefined },
  },
  paused: {
    resume: { state: 'queued' },
    cancel: { state: 'cancelled', error: undefined },
  },
  done: {
    remove: { state: 'removed' },
  },
  failed: {
    cancel: { state: 'cancelled', error: earlier },
    retry: { state: 'queued' },
    remove: { state: 'removed' },
  },
  cancelled: {
    retry: { state: 'queued' },
    remove: { state: 'removed' },
    abortFailed: { state: 'cancelled', error: abortError },
  },
  removed: {},
};

const PAIRS = Object.entries(STATES).flatMap(([name, life]) => EVENT_TYPES.map((type) => ({ name, life, type, event: EVENTS[type], expected: ALLOWED[name]?.[type] })));
const ALLOWED_PAIRS = PAIRS.flatMap(({ expected, ...pair }) => (expected ? [{ ...pair, expected }] : []));
const REFUSED_PAIRS = PAIRS.filter(({ expected }) => expected === undefined);

describe('the upload item lifecycle', () => {
  it('is checked for every event, and every state meets every event', () => {
    expect([...EVENT_TYPES].sort()).toEqual(Object.keys(EVENTS).sort());
    expect(ALLOWED_PAIRS.length + REFUSED_PAIRS.length).toBe(Object.keys(STATES).length * EVENT_TYPES.length);
  });

  it.each(ALLOWED_PAIRS.map((p) => [p.name, p.type, p.expected.state, p] as const))('%s --%s--> %s', (_name, _type, _state, { life, event, expected }) => {
    expect(transition(life, event)).toEqual(expected);
  });

  it.each(REFUSED_PAIRS.map((p) => [p.name, p.type, p] as const))('%s ignores %s', (_name, _type, { life, event }) => {
    // The very same object: the queue sees "no change" and notifies nobody.
    expect(transition(life, event)).toBe(life);
  });
});
