/**
 * One job per scope across the tabs of this browser profile. A tab running a job holds the Web Lock
 * `qsc-job:<id>` (navigator.locks) until the job stops or the tab goes; the browser releases it when the
 * tab closes or reloads, so "held" always means "running somewhere right now". Starting or resuming a job
 * happens under the short exclusive lock `qsc-jobs-start`: the tab reads which jobs are held and whether
 * one of them covers the same objects, and only then takes its own lock, so two tabs clicking at once
 * cannot both start. Tabs tell each other about changes on the BroadcastChannel `qsc-jobs`.
 *
 * Where the Web Locks API is missing (an old browser, a test environment), locks are kept in memory:
 * one tab is then all the console can see.
 */
import type { JobRecord, JobScope } from './types.ts';

export interface HeldLock {
  /** Resolves once the lock is free again (another tab may take it from then on). */
  release(): Promise<void>;
}

export interface JobLocks {
  /** Holds `name` until released; null when another holder has it. */
  tryHold(name: string): Promise<HeldLock | null>;
  /** Runs `fn` while holding `name` exclusively, waiting for it if needed. */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Names held right now, by any tab. */
  held(): Promise<Set<string>>;
}

export const START_LOCK = 'qsc-jobs-start';

export function jobLockName(id: string): string {
  return `qsc-job:${id}`;
}

export function memoryLocks(): JobLocks {
  const held = new Set<string>();
  let chain: Promise<unknown> = Promise.resolve();
  return {
    async tryHold(name) {
      if (held.has(name)) return null;
      held.add(name);
      return {
        release: async () => {
          held.delete(name);
        },
      };
    },
    exclusive(_name, fn) {
      const run = chain.then(fn, fn);
      chain = run.catch(() => undefined);
      return run;
    },
    held: async () => new Set(held),
  };
}

export function webLocks(manager: LockManager): JobLocks {
  return {
    tryHold(name) {
      return new Promise<HeldLock | null>((resolve, reject) => {
        const request = manager.request(name, { ifAvailable: true }, (lock) => {
          if (lock === null) {
            resolve(null);
            return undefined;
          }
          // The lock is held until this promise settles; `request` settles once it is released.
          return new Promise<void>((done) => {
            resolve({
              release: () => {
                done();
                return request.then(() => undefined);
              },
            });
          });
        });
        request.catch(reject);
      });
    },
    exclusive(name, fn) {
      return manager.request(name, { mode: 'exclusive' }, () => fn());
    },
    async held() {
      const state = await manager.query();
      return new Set((state.held ?? []).flatMap((lock) => (lock.name ? [lock.name] : [])));
    },
  };
}

export function browserLocks(): JobLocks {
  return typeof navigator !== 'undefined' && navigator.locks ? webLocks(navigator.locks) : memoryLocks();
}

function keysOverlapPrefix(keys: readonly string[], prefix: string): boolean {
  return keys.some((key) => key.startsWith(prefix));
}

/** Whether two scopes of the same bucket can name the same object. */
export function scopesOverlap(a: JobScope, b: JobScope): boolean {
  if (a.kind === 'bucket' || b.kind === 'bucket') return true;
  if (a.kind === 'prefix' && b.kind === 'prefix') return a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix);
  if (a.kind === 'prefix' && b.kind === 'keys') return keysOverlapPrefix(b.keys, a.prefix);
  if (a.kind === 'keys' && b.kind === 'prefix') return keysOverlapPrefix(a.keys, b.prefix);
  if (a.kind === 'keys' && b.kind === 'keys') {
    const set = new Set(a.keys);
    return b.keys.some((key) => set.has(key));
  }
  return false;
}

/** Whether `job` works on any object `scope` of `zone`/`bucket` covers (its destination included). */
export function jobTouches(job: Pick<JobRecord, 'zone' | 'bucket' | 'scope' | 'operation'>, zone: string, bucket: string, scope: JobScope): boolean {
  if (job.zone !== zone) return false;
  if (job.bucket === bucket && scopesOverlap(job.scope, scope)) return true;
  const op = job.operation;
  if ((op.kind === 'copy' || op.kind === 'move') && op.destination.bucket === bucket) {
    return scopesOverlap(op.destination.prefix === '' ? { kind: 'bucket' } : { kind: 'prefix', prefix: op.destination.prefix }, scope);
  }
  return false;
}

/** Tells the other tabs that jobs changed; `listen` hears the other tabs. */
export interface JobBroadcast {
  post(id: string): void;
  listen(listener: (id: string) => void): () => void;
  close(): void;
}

export function browserBroadcast(): JobBroadcast {
  if (typeof BroadcastChannel === 'undefined') return { post: () => undefined, listen: () => () => undefined, close: () => undefined };
  const channel = new BroadcastChannel('qsc-jobs');
  return {
    post: (id) => channel.postMessage({ type: 'changed', id }),
    listen: (listener) => {
      const onMessage = (event: MessageEvent<unknown>) => {
        const data = event.data;
        if (typeof data === 'object' && data !== null && 'id' in data && typeof data.id === 'string') listener(data.id);
      };
      channel.addEventListener('message', onMessage);
      return () => channel.removeEventListener('message', onMessage);
    },
    close: () => channel.close(),
  };
}
