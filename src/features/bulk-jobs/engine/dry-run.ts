/**
 * The dry run, before anything is written: how many objects the scope holds (the listing, page by page,
 * keys not kept) and what would happen to the first ones (for an edit: each read with one HEAD and judged
 * exactly as the run will judge it; for a copy or move: where each goes). It sends no write.
 */
import type { QsClient } from '../../../api/client.ts';
import type { HeaderVisibility } from '../../../api/cors/visibility.ts';
import { applyMetadataEdits, diffMetadata, MetadataEditError, replaceRequestHeaders, type MetadataChange } from '../../../api/metadata/edit.ts';
import type { MetadataRule } from '../../../api/metadata/types.ts';
import { headObjectReadable } from '../../../api/objects/read.ts';
import { mapConcurrently } from '../../../lib/concurrency.ts';
import type { MetadataWritePort } from './ops/unit.ts';
import { describeError } from './ops/unit.ts';
import { operationOf } from './runner.ts';
import { countListing, keysSource, listingSource, type JobSource } from './sources.ts';
import { destinationKey, type JobRecord } from './types.ts';

/** Objects whose outcome the dry run shows. */
export const DRY_RUN_SAMPLE = 100;
const SAMPLE_CONCURRENCY = 6;

export type PreviewRow =
  | { key: string; status: 'ready'; changes: MetadataChange[] }
  | { key: string; status: 'unchanged' }
  | { key: string; status: 'invalid'; changes: MetadataChange[]; code: string; rule: MetadataRule; bytes?: number; limit?: number }
  | { key: string; status: 'blocked'; block: string }
  | { key: string; status: 'failed'; code: string; message: string; requestId?: string }
  /** A delete, copy or move: the object and, for copies and moves, where it goes. */
  | { key: string; status: 'listed'; target?: string };

export interface DryRun {
  /** Objects in the scope the operation would cover. */
  total: number;
  sample: PreviewRow[];
}

export interface DryRunInput {
  client: QsClient;
  job: Pick<JobRecord, 'zone' | 'bucket' | 'scope' | 'operation'>;
  metadata: MetadataWritePort;
  visibility: HeaderVisibility;
  signal?: AbortSignal;
  /** The running count while the scope is listed, and the sample once read. */
  onProgress?(progress: { counted: number; sampled: number }): void;
}

function sourceOf(input: DryRunInput): JobSource {
  const { scope, zone, bucket } = input.job;
  if (scope.kind === 'keys') return keysSource(scope.keys, null);
  return listingSource(input.client, { zone, bucket }, scope.kind === 'prefix' ? scope.prefix : '', null, input.signal);
}

export async function dryRun(input: DryRunInput): Promise<DryRun> {
  const { job, client } = input;
  const op = operationOf(job.operation);
  const firstPage = await sourceOf(input).next();
  const firstKeys = (firstPage?.entries ?? []).map((e) => e.key).filter((key) => op.accepts(key)).slice(0, DRY_RUN_SAMPLE);
  let sampled = 0;
  let counted = 0;
  const report = () => input.onProgress?.({ counted, sampled });
  const counting =
    job.scope.kind === 'keys'
      ? Promise.resolve(job.scope.keys.filter((key) => op.accepts(key)).length)
      : countListing(client, { zone: job.zone, bucket: job.bucket }, job.scope.kind === 'prefix' ? job.scope.prefix : '', {
          ...(input.signal ? { signal: input.signal } : {}),
          keep: (key) => op.accepts(key),
          onCount: (count) => {
            counted = count;
            report();
          },
        });
  const operation = job.operation;
  const sample = await mapConcurrently(firstKeys, SAMPLE_CONCURRENCY, async (key): Promise<PreviewRow> => {
    input.signal?.throwIfAborted();
    try {
      if (operation.kind !== 'edit') {
        return operation.kind === 'copy' || operation.kind === 'move' ? { key, status: 'listed', target: destinationKey(job.scope, operation.destination, key) } : { key, status: 'listed' };
      }
      const head = await headObjectReadable(client, { zone: job.zone, bucket: job.bucket, key }, input.signal ? { signal: input.signal } : {});
      const block = input.metadata.block(client, input.visibility, head);
      if (block !== null) return { key, status: 'blocked', block };
      const changes = diffMetadata(head.metadata, applyMetadataEdits(head.metadata, operation.edits));
      if (changes.length === 0) return { key, status: 'unchanged' };
      try {
        replaceRequestHeaders(head.metadata, operation.edits);
      } catch (error) {
        if (error instanceof MetadataEditError) {
          const { code, rule, bytes, limit } = error.violation;
          return { key, status: 'invalid', changes, code, rule, ...(bytes !== undefined ? { bytes } : {}), ...(limit !== undefined ? { limit } : {}) };
        }
        throw error;
      }
      return { key, status: 'ready', changes };
    } catch (error) {
      if (input.signal?.aborted) throw error;
      const described = describeError(error);
      return { key, status: 'failed', code: described.code, message: described.message, ...(described.requestId ? { requestId: described.requestId } : {}) };
    } finally {
      sampled += 1;
      report();
    }
  });
  const total = await counting;
  return { total, sample };
}
