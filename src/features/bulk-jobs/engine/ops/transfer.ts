/**
 * Copies (ref §5.2, COPY directive: the copy keeps the source's headers and metadata) and moves (ref §5.3:
 * metadata kept, the source removed) into another folder or bucket of the same zone, one object at a time.
 * Each key keeps its path below the scope's folder. With `overwrite: 'skip'`, a destination that exists
 * is left alone and reported (one HEAD of the destination first).
 *
 * Exactly once: the "about to write" record keeps the source's ETag and size. A later attempt of an
 * object whose answer was lost finds the destination holding that ETag (the write landed: counted, not
 * sent again) or not (sent again; for a move, only while the source is still there).
 */
import { headObject, type ObjectHead } from '../../../../api/objects/read.ts';
import { copyObject, moveObject } from '../../../../api/objects/write.ts';
import type { SourceEntry } from '../sources.ts';
import { destinationKey, type ItemRecord, type JobDestination, type StoredVersion } from '../types.ts';
import { failure, isNotFound, type Operation, type UnitContext, type UnitResult } from './unit.ts';

/** HEAD that answers null for a missing object. */
async function headOrNull(context: UnitContext, bucket: string, key: string): Promise<ObjectHead | null> {
  try {
    return await headObject(context.client, { zone: context.job.zone, bucket, key });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

function sourceVersion(entry: SourceEntry, previous: ItemRecord | undefined): StoredVersion {
  if (previous?.before) return previous.before;
  return { size: entry.size ?? 0, metadata: { standard: {}, custom: {} }, ...(entry.etag !== undefined ? { etag: entry.etag } : {}) };
}

async function runOne(kind: 'copy' | 'move', destination: JobDestination, overwrite: 'skip' | 'replace', entry: SourceEntry, previous: ItemRecord | undefined, context: UnitContext): Promise<UnitResult> {
  const { job } = context;
  const base = { job: job.id, key: entry.key };
  const target = destinationKey(job.scope, destination, entry.key);
  const source = sourceVersion(entry, previous);
  const pending = previous?.state === 'intent' || (previous?.state === 'failed' && previous.uncertain === true);
  const settle = (fields: Partial<ItemRecord> & { state: ItemRecord['state'] }): UnitResult => ({ kind: 'settled', records: [{ ...base, before: source, ...fields }], outcome: { kind: 'ok' } });
  try {
    if (pending || overwrite === 'skip') {
      const there = await headOrNull(context, destination.bucket, target);
      if (pending && there && source.etag !== undefined && there.etag === source.etag && there.size === source.size) {
        // The lost write landed (a copy or move leaves the source's ETag on the destination).
        if (kind === 'copy') return settle({ state: 'changed' });
        const left = await headOrNull(context, job.bucket, entry.key);
        if (left === null) return settle({ state: 'changed' });
      } else if (there && overwrite === 'skip') {
        return settle({ state: 'skipped', code: 'destination_exists' });
      }
    }
    if (kind === 'move' && pending) {
      const still = await headOrNull(context, job.bucket, entry.key);
      if (still === null) return settle({ state: 'skipped', code: 'source_gone' });
    }
  } catch (error) {
    return failure(error, context, (fields) => [{ ...base, before: source, ...fields, state: fields.state ?? 'failed' }]);
  }
  if (context.stopping()) return { kind: 'abandoned' };
  await context.intend([{ ...base, state: 'intent', before: source }]);
  try {
    const input = { zone: job.zone, bucket: destination.bucket, key: target, source: { bucket: job.bucket, key: entry.key } };
    const result = kind === 'copy' ? await copyObject(context.client, { ...input, directive: 'COPY' }) : await moveObject(context.client, input);
    return { kind: 'settled', records: [{ ...base, state: 'changed', before: source, after: result.etag ? { etag: result.etag } : {}, requestId: result.requestId }], outcome: { kind: 'ok' } };
  } catch (error) {
    if (kind === 'move' && isNotFound(error)) return settle({ state: 'skipped', code: 'source_gone' });
    return failure(error, context, (fields) => [{ ...base, before: source, ...fields, state: fields.state ?? 'failed' }], true);
  }
}

export function transferObjects(kind: 'copy' | 'move', destination: JobDestination, overwrite: 'skip' | 'replace'): Operation {
  return {
    accepts: () => true,
    batch: 1,
    run: async (units, context) => {
      const unit = units[0];
      if (!unit) return { kind: 'settled', records: [], outcome: { kind: 'other' } };
      return runOne(kind, destination, overwrite, unit.entry, unit.previous, context);
    },
  };
}
