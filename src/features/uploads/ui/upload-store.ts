import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
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
  type Md5Hasher,
  type PartPlanOptions,
  type UploadQueue,
  type UploadsSnapshot,
} from '../engine/index.ts';
import { loadSettings, partSizeBytes, type UploadSettings } from './settings.ts';
import { peekUploadSession, registerUploadSession } from './upload-registry.ts';

/**
 * One upload queue per connection for the life of the page (README.md, "Architecture": transfers live in
 * one upload store). It is a module singleton rather than React state so transfers survive navigation
 * between the object browser and the multipart inspector, which are separate route modules.
 */
export interface UploadSession {
  queue: UploadQueue;
  hasher: Md5Hasher;
  scope: string;
  /** Applies panel settings to transfers started from now on. */
  applySettings(settings: UploadSettings): void;
  settings(): UploadSettings;
}

function resumeStore() {
  // IndexedDB can be missing (some private modes, old test environments): remember in memory instead.
  return typeof indexedDB === 'undefined' ? createMemoryResumeStore() : createIndexedDbResumeStore();
}

export function getUploadSession(client: QsClient, queryClient: QueryClient): UploadSession {
  const scope = connectionId(client.connection);
  const existing = peekUploadSession(scope);
  if (existing) return existing;

  let settings = loadSettings();
  // The engine reads `partPlan` when each multipart transfer starts; the panel's part size setting updates
  // this object, so a changed setting applies to the next file without rebuilding the queue.
  const partPlan: PartPlanOptions = { partSize: partSizeBytes(settings) };
  const hasher = createMd5Hasher();
  const queue = createUploadQueue({ ports: createApiPorts(client), scope, hasher, resumeStore: resumeStore(), concurrency: settings.concurrency, partConcurrency: settings.partConcurrency, partPlan });

  // Finished uploads must show up in the object browser (and leave the inspector's list) wherever the user
  // is, so the invalidation lives here, not in a component that may be unmounted.
  const announced = new Set<string>();
  queue.subscribe(() => {
    for (const item of queue.getSnapshot().items) {
      if (item.state !== 'done' || announced.has(item.id)) continue;
      announced.add(item.id);
      void queryClient.invalidateQueries({ queryKey: objectListsKey(client, item.bucket) });
      void queryClient.invalidateQueries({ queryKey: objectKey(client, item.bucket, item.key) });
      if (item.kind === 'multipart') void queryClient.invalidateQueries({ queryKey: uploadListsKey(client, item.bucket) });
    }
  });

  const session: UploadSession = {
    queue,
    hasher,
    scope,
    applySettings(next) {
      settings = next;
      partPlan.partSize = partSizeBytes(next);
      queue.setConcurrency(next.concurrency);
      queue.setPartConcurrency(next.partConcurrency);
    },
    settings: () => settings,
  };
  // A new connection: the transfers of the previous one stop with it.
  registerUploadSession(scope, session)?.queue.dispose();
  return session;
}

export function useUploadsSnapshot(queue: UploadQueue): UploadsSnapshot {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot);
}
