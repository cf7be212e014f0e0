/**
 * The life of one upload item as a state machine: every change of an item's state in the queue (queue.ts)
 * goes through `transition`, a pure function; an event a state does not accept is ignored (the same state
 * comes back), so a late or repeated click can never put an item in an impossible state.
 *
 *   queued                     --start-->          running
 *   running                    --succeeded-->      done
 *   running                    --ended-->          failed (or paused / cancelled when it was being stopped)
 *   running                    --pause, cancel-->  running, stopping (the transfer is being aborted)
 *   queued                     --pause-->          paused   --resume-->  queued
 *   queued, paused, failed     --cancel-->         cancelled
 *   failed, cancelled          --retry-->          queued
 *   queued, done, failed, cancelled --remove-->    removed (off the list; it never starts again)
 *
 * A running item is stopped in two steps: `pause`/`cancel` record why (`stopping`) while the transfer is
 * aborted, and `ended` lands it once the transfer has actually ended. `remove` takes an item that is not
 * transferring (queued, done, failed, cancelled) off the list for good.
 */

export type Lifecycle =
  | { readonly state: 'queued' }
  /** `stopping`: the user paused or cancelled it and the transfer is being aborted. */
  | { readonly state: 'running'; readonly stopping: 'pause' | 'cancel' | undefined }
  | { readonly state: 'paused' }
  /** `etag`: the quoted ETag the service stored. */
  | { readonly state: 'done'; readonly etag: string }
  | { readonly state: 'failed'; readonly error: Error }
  /** `error`: why the item failed before, or why aborting its multipart upload on the server failed. */
  | { readonly state: 'cancelled'; readonly error: Error | undefined }
  | { readonly state: 'removed' };

export type LifecycleEvent =
  /** The queue gives the item a slot. */
  | { readonly type: 'start' }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' }
  | { readonly type: 'cancel' }
  | { readonly type: 'retry' }
  | { readonly type: 'remove' }
  /** The transfer finished and its ETag checked out. */
  | { readonly type: 'succeeded'; readonly etag: string }
  /** The transfer ended without success: aborted on request, or failed with `error`. */
  | { readonly type: 'ended'; readonly error: Error }
  /** Aborting the cancelled item's multipart upload on the server failed. */
  | { readonly type: 'abortFailed'; readonly error: Error };

export type LifecycleEventType = LifecycleEvent['type'];

export const QUEUED: Lifecycle = { state: 'queued' };

/** The next lifecycle of an item after `event`; `life` itself (the same object) when the event does not apply. */
export function transition(life: Lifecycle, event: LifecycleEvent): Lifecycle {
  switch (event.type) {
    case 'start':
      return life.state === 'queued' ? { state: 'running', stopping: undefined } : life;
    case 'pause':
      if (life.state === 'queued') return { state: 'paused' };
      if (life.state === 'running' && life.stopping === undefined) return { state: 'running', stopping: 'pause' };
      return life;
    case 'resume':
      return life.state === 'paused' ? QUEUED : life;
    case 'cancel':
      if (life.state === 'queued' || life.state === 'paused') return { state: 'cancelled', error: undefined };
      if (life.state === 'failed') return { state: 'cancelled', error: life.error };
      // A cancel while a pause is being carried out wins: the item ends cancelled, not paused.
      if (life.state === 'running' && life.stopping !== 'cancel') return { state: 'running', stopping: 'cancel' };
      return life;
    case 'retry':
      return life.state === 'failed' || life.state === 'cancelled' ? QUEUED : life;
    case 'remove':
      return life.state === 'queued' || life.state === 'done' || life.state === 'failed' || life.state === 'cancelled' ? { state: 'removed' } : life;
    case 'succeeded':
      // A transfer that completed while being stopped is done all the same: the object is stored.
      return life.state === 'running' ? { state: 'done', etag: event.etag } : life;
    case 'ended':
      if (life.state !== 'running') return life;
      if (life.stopping === 'pause') return { state: 'paused' };
      if (life.stopping === 'cancel') return { state: 'cancelled', error: undefined };
      return { state: 'failed', error: event.error };
    case 'abortFailed':
      return life.state === 'cancelled' ? { state: 'cancelled', error: event.error } : life;
  }
}
