export { normalizeMetadata } from './state.ts';
import { Md5 } from './md5.ts';
import type { StoreOptions } from './types.ts';
import { LoadingStore } from './loading.ts';

/**
 * The emulator's state and semantics. All methods are synchronous and throw QsError with the
 * reference's codes; records they return are immutable snapshots. Zone checks (bucket zone vs host
 * zone), permissions, conditional headers and wire formatting belong to the handlers.
 */
export class Store extends LoadingStore {
  private constructor(options: StoreOptions, md5: Md5) {
    super(options, md5);
  }

  /** The only async step: loads the wasm MD5 so every other method can be synchronous. */
  static async create(options: StoreOptions = {}): Promise<Store> {
    return new Store(options, await Md5.create());
  }
}
