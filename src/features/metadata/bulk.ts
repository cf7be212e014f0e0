/**
 * Bulk metadata edit: the same edits applied to many objects, each merged with ITS OWN current metadata
 * (HEAD → applyMetadataEdits → conditional REPLACE copy, ref §5.2), so keys an object has and the
 * edits do not mention survive. A small pool bounds the number of requests in flight.
 */
import type { QsClient } from '../../api/client.ts';
import { diffMetadata, replaceRequestHeaders, type MetadataEdits } from '../../api/metadata/edit.ts';
import { metadataFromEntries } from '../../api/metadata/model.ts';
import { headObject } from '../../api/objects/operations.ts';
import { copyOntoItself } from './large-copy.ts';
import { versionConditions } from './save.ts';

export type BulkItemState =
  | { status: 'pending' }
  | { status: 'running' }
  | { status: 'done'; changes: number; requestId: string }
  | { status: 'unchanged' }
  | { status: 'failed'; error: unknown };

export interface BulkTarget {
  zone: string;
  bucket: string;
  key: string;
}

export const BULK_CONCURRENCY = 4;

/** One object: HEAD, merge, and a copy conditional on the version just read. */
export async function editOneObject(client: QsClient, target: BulkTarget, edits: MetadataEdits, signal?: AbortSignal): Promise<BulkItemState> {
  const options = signal ? { signal } : {};
  const head = await headObject(client, target, options);
  const headers = replaceRequestHeaders(head.metadata, edits);
  const merged = metadataFromEntries(Object.entries(headers));
  const changes = diffMetadata(head.metadata, merged).length;
  if (changes === 0) return { status: 'unchanged' };
  const result = await copyOntoItself(
    client,
    { ...target, source: { bucket: target.bucket, key: target.key }, directive: 'REPLACE', metadata: merged, conditions: versionConditions(head), version: head },
    undefined,
    options,
  );
  return { status: 'done', changes, requestId: result.requestId };
}

/**
 * Runs `editOneObject` over `targets` with at most `concurrency` in flight, reporting every state change.
 * Failures never stop the others; the caller retries the failed ones by calling this again with them.
 */
export async function runBulkEdit(
  client: QsClient,
  targets: readonly BulkTarget[],
  edits: MetadataEdits,
  onState: (key: string, state: BulkItemState) => void,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const queue = [...targets];
  const worker = async () => {
    for (let target = queue.shift(); target !== undefined; target = queue.shift()) {
      if (options.signal?.aborted) return;
      onState(target.key, { status: 'running' });
      try {
        onState(target.key, await editOneObject(client, target, edits, options.signal));
      } catch (error) {
        onState(target.key, { status: 'failed', error });
      }
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? BULK_CONCURRENCY, targets.length));
  await Promise.all(Array.from({ length: width }, worker));
}
