/**
 * Deletes in batches of up to 1000 keys with DeleteMultipleObjects (ref §5.9). The batch's keys are
 * recorded as "about to delete" first: a deleted key is gone from the listing, so after a reload whose
 * answer was lost only these records still name it, and the batch is sent again (a delete is idempotent:
 * a key that no longer exists is reported deleted, ref §5.9).
 */
import { deleteMultipleObjects } from '../../../../api/objects/write.ts';
import { MAX_DELETE_OBJECTS } from '../../../../api/objects/schemas.ts';
import type { ItemRecord } from '../types.ts';
import { describeError, failure, type Operation } from './unit.ts';

export const deleteObjects: Operation = {
  accepts: () => true,
  batch: MAX_DELETE_OBJECTS,
  async run(units, context) {
    const keys = units.map((u) => u.entry.key);
    if (keys.length === 0) return { kind: 'settled', records: [], outcome: { kind: 'other' } };
    const base = (key: string) => ({ job: context.job.id, key });
    if (context.stopping()) return { kind: 'abandoned' };
    await context.intend(keys.map((key): ItemRecord => ({ ...base(key), state: 'intent' })));
    try {
      const result = await deleteMultipleObjects(context.client, { zone: context.job.zone, bucket: context.job.bucket, keys });
      const errors = new Map(result.errors.map((e) => [e.key, e] as const));
      const records = keys.map((key): ItemRecord => {
        const error = errors.get(key);
        const requestId = result.requestId ? { requestId: result.requestId } : {};
        return error ? { ...base(key), state: 'failed', code: error.code, ...requestId, ...(error.message ? { message: error.message } : {}) } : { ...base(key), state: 'changed', ...requestId };
      });
      return { kind: 'settled', records, outcome: { kind: 'ok' } };
    } catch (error) {
      return failure(error, context, (fields) => keys.map((key) => ({ ...base(key), ...describeError(error), ...fields, state: fields.state ?? 'failed' })), true);
    }
  },
};
