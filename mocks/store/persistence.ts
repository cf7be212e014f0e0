import type { Store } from './store.ts';
import type { BodySink, StoreJournal } from './types.ts';

/**
 * Where a store's changes are kept beyond the process or the tab (createEmulator's `persistence`): the
 * standalone server's --data-dir or the demo's IndexedDB (idb.ts). Declared here, below the
 * emulator, so the store never imports the module that assembles it.
 */
export interface EmulatorPersistence {
  journal: StoreJournal;
  /** Where request bodies go; default memory. */
  bodySink?: () => BodySink;
  /**
   * Resolves once every change made so far is persisted; each request's answer waits for it (a journal
   * that writes asynchronously, e.g. IndexedDB). Absent: the journal is durable when its call returns.
   */
  durable?: () => Promise<void>;
  /** Loads what was persisted into the new store; false when there was nothing (then the seed is applied). */
  restore(store: Store): boolean;
}
