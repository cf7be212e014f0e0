/**
 * The emulator factory: one Store, its users and the msw handlers over it. All three adapters (browser
 * worker, setupServer, standalone HTTP server) start from here.
 */
import type { HttpHandler } from 'msw';
import type { MockUser } from './auth/signature.ts';
import { createHandlers, handleEmulatorRequest, resolveOptions, type EmulatorOptions } from './handlers/index.ts';
import type { PostFormReader } from './http/post-form.ts';
import { DEMO_MIN_PART_SIZE } from '../src/api/protocol/demo.ts';
import { MAX_LIST_OBJECTS_LIMIT, MIN_PART_SIZE } from '../src/api/protocol/limits.ts';
import { applySeed, DEMO_USER, type SeedName } from './seed.ts';
import { Store } from './store/index.ts';
import type { EmulatorPersistence } from './store/persistence.ts';

export { DEMO_USER } from './seed.ts';

export interface CreateEmulatorOptions {
  /** Initial data; default 'demo'. */
  seed?: SeedName;
  /** Accepted users; default [DEMO_USER]. The first user owns the seeded buckets. */
  users?: readonly MockUser[];
  /** QingStor domains served (ref §1.1); default ['qingstor.com']. */
  domains?: readonly string[];
  /** Zone for hosts outside `domains`; default 'pek3a'. */
  defaultZone?: string;
  /** Known zones; default the five DOCS zones (ref §1.1). */
  zones?: readonly string[];
  /**
   * Minimum size of every part but the last at Complete (ref §8.5). Default: DEMO_MIN_PART_SIZE (16 bytes) for
   * the demo seed, so its tiny seeded uploads can be completed; the real 4 MiB for the empty seed.
   */
  minPartSize?: number;
  /** Largest single PUT/POST body, part or append before entity_too_large (ref §5.1, §8); default 5 GiB. */
  maxObjectSize?: number;
  /**
   * Largest source of one PUT-copy and largest range of one Upload Part - Copy (ref §5.2, §8.3), above which
   * they answer entity_too_large; default maxObjectSize (5 GiB). Lower it to exercise multipart copies
   * of "large" objects with small bodies.
   */
  copyLimit?: number;
  /** ListObjects limit clamp (ref §9.5/§12); default 100, as the current DOCS say. */
  listLimitMax?: number;
  /** Serve any other host as path style in `defaultZone` (standalone server); default false. */
  acceptAnyHost?: boolean;
  /** Refuse requests with an Origin that no CORS rule allows (ref §9.9); default false. */
  strictCors?: boolean;
  /** Clock for the store, Date headers and the signature window; default () => new Date(). */
  now?: () => Date;
  /** PostObject form parser; default request.formData() (see mocks/handlers/post-object.ts). */
  postFormReader?: PostFormReader;
  /** Persistent records and bodies (the standalone server's --data-dir); default: memory only. */
  persistence?: EmulatorPersistence;
}

export interface Emulator {
  store: Store;
  handlers: HttpHandler[];
  users: readonly MockUser[];
  /**
   * Answers one request to a host the handlers serve, as their resolver does, without msw's per-request
   * matching (for adapters that already know the request is the emulator's, e.g. the demo's in-page fetch).
   */
  respond(request: Request): Promise<Response>;
}


export async function createEmulator(options: CreateEmulatorOptions = {}): Promise<Emulator> {
  const seed = options.seed ?? 'demo';
  const users = options.users ?? [DEMO_USER];
  const now = options.now ?? (() => new Date());
  const store = await Store.create({
    now,
    minPartSize: options.minPartSize ?? (seed === 'demo' ? DEMO_MIN_PART_SIZE : MIN_PART_SIZE),
    maxListLimit: options.listLimitMax ?? MAX_LIST_OBJECTS_LIMIT,
    ...(options.maxObjectSize !== undefined ? { maxObjectSize: options.maxObjectSize } : {}),
    ...(options.copyLimit !== undefined ? { copyLimit: options.copyLimit } : {}),
    ...(options.persistence ? { journal: options.persistence.journal } : {}),
    ...(options.persistence?.bodySink ? { bodySink: options.persistence.bodySink } : {}),
  });
  if (!options.persistence?.restore(store)) applySeed(seed, store, users);
  const handlerOptions: EmulatorOptions = {
    store,
    users,
    domains: options.domains ?? ['qingstor.com'],
    defaultZone: options.defaultZone ?? 'pek3a',
    ...(options.zones ? { zones: options.zones } : {}),
    acceptAnyHost: options.acceptAnyHost ?? false,
    strictCors: options.strictCors ?? false,
    now,
    ...(options.postFormReader ? { postFormReader: options.postFormReader } : {}),
    ...(options.persistence?.durable ? { durable: options.persistence.durable } : {}),
  };
  const handlers = createHandlers(handlerOptions);
  const resolved = resolveOptions(handlerOptions);
  return { store, handlers, users, respond: (request) => handleEmulatorRequest(request, resolved) };
}
