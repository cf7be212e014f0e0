import { useSyncExternalStore } from 'react';
import type { ObjectHead } from '../../api/objects/read.ts';

/**
 * The last metadata save per object, for "Undo last save": the before-image and the version the save
 * produced. Kept in memory and in the tab's sessionStorage, so an undo survives a reload (and a bulk
 * edit's per-object saves can be undone one by one later); it goes when undone or replaced by a newer
 * save. Keyed by connection identity (access key id, endpoint, addressing — never the secret) + zone +
 * bucket + key, so another connection never undoes into this one. Only metadata and version headers are
 * stored, nothing secret.
 */
export interface LastSave {
  before: ObjectHead;
  after: ObjectHead;
}

const STORAGE_PREFIX = 'qsc.lastSave:';
const saves = new Map<string, LastSave | null>();
const listeners = new Set<() => void>();

export function lastSaveId(connectionId: string, zone: string, bucket: string, key: string): string {
  return JSON.stringify([connectionId, zone, bucket, key]);
}

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings): undo then lasts until the page goes.
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** A stored head back into an ObjectHead; null for anything that does not have the shape. */
function reviveHead(value: unknown): ObjectHead | null {
  if (!isRecord(value)) return null;
  const { bucket, key, size, contentType, storageClass, requestId, metadata, etag, lastModifiedRaw } = value;
  if (typeof bucket !== 'string' || typeof key !== 'string' || typeof size !== 'number' || typeof contentType !== 'string') return null;
  if (typeof storageClass !== 'string' || typeof requestId !== 'string' || !isRecord(metadata)) return null;
  // JSON.parse keeps every key as an own property (`__proto__` included), so the records are used as read.
  if (!isStringRecord(metadata['standard']) || !isStringRecord(metadata['custom'])) return null;
  const head: ObjectHead = { bucket, key, size, contentType, storageClass, requestId, metadata: { standard: metadata['standard'], custom: metadata['custom'] } };
  if (typeof etag === 'string') head.etag = etag;
  if (typeof lastModifiedRaw === 'string') {
    head.lastModifiedRaw = lastModifiedRaw;
    head.lastModified = new Date(lastModifiedRaw);
  }
  return head;
}

function load(id: string): LastSave | null {
  const raw = storage()?.getItem(STORAGE_PREFIX + id);
  if (raw === null || raw === undefined) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!isRecord(value)) return null;
    const before = reviveHead(value['before']);
    const after = reviveHead(value['after']);
    return before && after ? { before, after } : null;
  } catch {
    return null;
  }
}

/** The server clock of a stored head is stale by definition; it is not kept. */
function storable(head: ObjectHead): Omit<ObjectHead, 'serverClock' | 'lastModified'> {
  const { serverClock: _clock, lastModified: _date, ...rest } = head;
  return rest;
}

export function recordSave(id: string, save: LastSave | null): void {
  saves.set(id, save);
  const store = storage();
  try {
    if (save) store?.setItem(STORAGE_PREFIX + id, JSON.stringify({ before: storable(save.before), after: storable(save.after) }));
    else store?.removeItem(STORAGE_PREFIX + id);
  } catch {
    // Quota or disabled storage: the in-memory record still serves this page.
  }
  for (const listener of listeners) listener();
}

export function readLastSave(id: string): LastSave | undefined {
  let save = saves.get(id);
  if (save === undefined) {
    save = load(id);
    saves.set(id, save);
  }
  return save ?? undefined;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLastSave(id: string): LastSave | undefined {
  return useSyncExternalStore(subscribe, () => readLastSave(id), () => undefined);
}
