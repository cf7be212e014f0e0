import type { QueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useSyncExternalStore } from 'react';
import type { QsClient } from '../../../api/client.ts';
import { connectionId } from '../../../api/connection.ts';
import { uploadListsKey } from '../../../api/multipart/queries.ts';
import { objectKey, objectListsKey } from '../../../api/objects/queries.ts';
import {
  createApiPorts,
  createIndexedDbResumeStore,
  createMd5Hasher,
  createMemoryResumeStore,
  createUploadQueue,
  type PartPlanOptions,
  type UploadItem,
  type UploadQueue,
  type UploadsSnapshot,
} from '../engine/index.ts';
import { createPendingBatchStore } from './pending-batch.ts';
import { loadSettings, partSizeBytes } from './settings.ts';
import type { UploadSession } from './upload-host.ts';
import { useUploadHost } from './uploads-provider.tsx';

export type { UploadSession } from './upload-host.ts';

function resumeStore() {
  // IndexedDB can be missing (some private modes, old test environments): remember in memory instead.
  return typeof indexedDB === 'undefined' ? createMemoryResumeStore() : createIndexedDbResumeStore();
}

/**
 * The one place that refreshes cached queries after an upload: a finished upload must show up in the object
 * browser (and leave the inspector's list) wherever the user is, so it runs from the queue, not a component.
 */
function invalidateAfterUpload(queryClient: QueryClient, client: QsClient, item: UploadItem): void {
  void queryClient.invalidateQueries({ queryKey: objectListsKey(client, item.bucket) });
  void queryClient.invalidateQueries({ queryKey: objectKey(client, item.bucket, item.key) });
  if (item.kind === 'multipart') void queryClient.invalidateQueries({ queryKey: uploadListsKey(client, item.bucket) });
}

/** Makes the session of the client's connection; the app's upload host calls it once per connection. */
export function createUploadSession(client: QsClient, queryClient: QueryClient): UploadSession {
  let settings = loadSettings();
  // The engine reads `partPlan` when each multipart transfer starts; the panel's part size setting updates
  // this object, so a changed setting applies to the next file without rebuilding the queue.
  const partPlan: PartPlanOptions = { partSize: partSizeBytes(settings) };
  const hasher = createMd5Hasher();
  const queue = createUploadQueue({
    ports: createApiPorts(client),
    scope: connectionId(client.connection),
    hasher,
    resumeStore: resumeStore(),
    concurrency: settings.concurrency,
    partConcurrency: settings.partConcurrency,
    partPlan,
    onDone: (item) => invalidateAfterUpload(queryClient, client, item),
  });
  return {
    queue,
    hasher,
    scope: connectionId(client.connection),
    applySettings(next) {
      settings = next;
      partPlan.partSize = partSizeBytes(next);
      queue.setConcurrency(next.concurrency);
      queue.setPartConcurrency(next.partConcurrency);
    },
    settings: () => settings,
    pendingBatch: createPendingBatchStore(),
  };
}

export function useUploadsSnapshot(queue: UploadQueue): UploadsSnapshot {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot);
}

/**
 * The session of the client's connection, from the app's upload host: the first consumer makes it (in a
 * layout effect, so never during render, and before the first paint); undefined until then.
 */
export function useUploadSession(client: QsClient): UploadSession | undefined {
  const host = useUploadHost();
  const scope = connectionId(client.connection);
  const session = useSyncExternalStore(host.subscribe, () => host.peek(scope));
  useLayoutEffect(() => {
    host.open(client, createUploadSession);
  }, [host, client]);
  return session;
}
