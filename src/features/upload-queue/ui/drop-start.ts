import type { QsClient } from '../../../api/client.ts';
import { toast } from '../../../components/toast.tsx';
import type { I18n } from '../../../i18n/i18n.tsx';
import { describeError } from '../../../components/error-notice.tsx';
import { entriesFromDataTransfer, filesFromInput, findConflicts, markFreeKeys, planBatch, walkEntries, type DataTransferItemLike } from '../engine/index.ts';
import { conflictCheckMessage, keyExistsVia } from './conflict-check.tsx';
import { thresholdBytes } from './settings.ts';
import type { UploadHost, UploadTarget } from './upload-host.ts';
import { createUploadSession } from './upload-session.ts';

/** Starts a dropped batch in `target` and reports its end with a toast (how many done, how many failed). */
export async function startDroppedUpload({ host, client, i18n, target, items, files: dropped }: {
  host: UploadHost;
  client: QsClient;
  i18n: I18n;
  target: UploadTarget;
  /** The drop's items, as copied during the event. */
  items: readonly DataTransferItemLike[];
  /** The drop's files, used when no item gave an entry. */
  files: readonly File[];
}): Promise<void> {
  const roots = entriesFromDataTransfer(items);
  const plainFiles = roots.length === 0 ? dropped : [];
  const { tp } = i18n;
  const location = `${target.bucket}/${target.prefix}`;
  const files = [...(await walkEntries(roots)), ...filesFromInput(plainFiles)];
  if (files.length === 0) return;
  const session = host.open(client, createUploadSession);
  const plan = planBatch({ files, bucket: target.bucket, zone: target.zone, prefix: target.prefix, multipartThreshold: thresholdBytes(session.settings()) });
  // Files whose key is refused (too long, …) are left out; the drawer lists them with their reason.
  const skipped = plan.problems.length;
  if (plan.uploads.length === 0) {
    toast(tp('toast.uploadedFailed', 0, { location, failed: skipped }), { tone: 'error' });
    return;
  }
  // Keys that exist already: nothing starts; the drawer opens and asks once for the whole batch.
  // A key whose check failed (no permission to read it, network) is not taken as free: nothing starts.
  let conflicts;
  try {
    conflicts = await findConflicts(plan.uploads, keyExistsVia(client));
  } catch (error) {
    toast(conflictCheckMessage(error, i18n) ?? describeError(error, i18n).explanation, { tone: 'error' });
    return;
  }
  if (conflicts.length > 0) {
    session.pendingBatch.set({ bucket: target.bucket, uploads: plan.uploads, conflicts });
    host.setDrawer({ target, open: true });
    return;
  }
  const ids = new Set(session.queue.add(markFreeKeys(plan.uploads, conflicts)));
  // The header's indicator shows transfers of the drawer's target: it becomes this folder.
  host.setDrawer({ target });
  const unsubscribe = session.queue.subscribe(() => {
    const batch = session.queue.getSnapshot().items.filter((item) => ids.has(item.id));
    if (batch.some((item) => item.state === 'queued' || item.state === 'running' || item.state === 'paused')) return;
    unsubscribe();
    const done = batch.filter((item) => item.state === 'done').length;
    const failed = batch.length - done + skipped;
    toast(failed > 0 ? tp('toast.uploadedFailed', done, { location, failed }) : tp('toast.uploaded', done, { location }), { tone: failed > 0 ? 'error' : 'success' });
  });
}
