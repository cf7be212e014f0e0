import { useCallback } from 'react';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import type { UploadTarget } from './upload-host.ts';
import { useUploadHost } from './uploads-provider.tsx';

/**
 * Files and folders dropped on the object area (not the drawer): their entries are taken while the drop
 * event lasts, then the upload engine loads (if it has not yet) and starts them in `target` at once, paths
 * relative to the drop kept. The header's upload indicator shows them; a toast says when the batch is over.
 */
export function useDropUpload(): (target: UploadTarget, transfer: DataTransfer) => void {
  const client = useClient();
  const i18n = useI18n();
  const host = useUploadHost();
  return useCallback(
    (target: UploadTarget, transfer: DataTransfer) => {
      // The item list is only readable during the drop event: what each item holds is taken now, before
      // awaiting anything (the engine, loaded next, reads these copies).
      const items = Array.from(transfer.items, (item) => {
        const entry: unknown = item.kind === 'file' ? item.webkitGetAsEntry() : null;
        const file = item.kind === 'file' ? item.getAsFile() : null;
        return { kind: item.kind, webkitGetAsEntry: () => entry, getAsFile: () => file };
      });
      const files = Array.from(transfer.files);
      void import('./drop-start.ts').then(({ startDroppedUpload }) => startDroppedUpload({ host, client, i18n, target, items, files }));
    },
    [host, client, i18n],
  );
}
