import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { entriesFromDataTransfer } from '../engine/dropped-entries.ts';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import type { UploadTarget } from './upload-registry.ts';

/**
 * Files and folders dropped on the object area (not the drawer): their entries are taken while the drop
 * event lasts, then the upload engine loads (if it has not yet) and starts them in `target` at once, paths
 * relative to the drop kept. The header's upload indicator shows them; a toast says when the batch is over.
 */
export function useDropUpload(): (target: UploadTarget, transfer: DataTransfer) => void {
  const client = useClient();
  const queryClient = useQueryClient();
  const i18n = useI18n();
  return useCallback(
    (target: UploadTarget, transfer: DataTransfer) => {
      // The item list is only readable during the drop event: take the entries before awaiting anything.
      const roots = entriesFromDataTransfer(transfer.items);
      const plainFiles = roots.length === 0 ? Array.from(transfer.files) : [];
      void import('./drop-start.ts').then(({ startDroppedUpload }) => startDroppedUpload({ client, queryClient, i18n, target, roots, plainFiles }));
    },
    [client, queryClient, i18n],
  );
}
