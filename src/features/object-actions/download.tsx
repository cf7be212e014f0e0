import { useEffect, useRef } from 'react';
import { getObject, getObjectUrl } from '../../api/objects/read.ts';
import type { QsClient } from '../../api/client.ts';
import { toast } from '../../components/toast.tsx';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';

/** Lifetime of the link behind a Download from the table: it is followed at once. */
const DOWNLOAD_LINK_SECONDS = 60;

/**
 * Downloads one object. Against an endpoint: a short-lived pre-signed link with an attachment disposition,
 * followed by a temporary link element (the browser saves the file; the console stays where it is). In the
 * demo the backend lives in this page's service worker and its host does not exist for the browser's
 * download manager, so the object is read through the worker and saved from a blob URL (demo objects are
 * small).
 */
export async function downloadObject(client: QsClient, ref: { zone: string; bucket: string; key: string }, demo: boolean): Promise<void> {
  const name = ref.key.slice(ref.key.lastIndexOf('/') + 1) || ref.key;
  const link = document.createElement('a');
  link.download = name;
  link.rel = 'noreferrer';
  link.hidden = true;
  let blobUrl: string | undefined;
  if (demo) {
    const { body } = await getObject(client, ref);
    blobUrl = URL.createObjectURL(body);
    link.href = blobUrl;
  } else {
    link.href = (await getObjectUrl(client, { ...ref, expiresIn: DOWNLOAD_LINK_SECONDS, downloadName: name })).href;
  }
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the time the click returns; the URL is let go a moment later.
  if (blobUrl !== undefined) setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
}

/** Starts one object's download when shown, then calls `onDone`; a link that cannot be made is said in a toast. */
export function DownloadObject({ zone, bucket, objectKey, onDone }: { zone: string; bucket: string; objectKey: string; onDone: () => void }) {
  const { t } = useI18n();
  const client = useClient();
  const demo = useConnectedSession().mode === 'demo';
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    downloadObject(client, { zone, bucket, key: objectKey }, demo)
      .catch(() => toast(t('menu.downloadFailed'), { tone: 'error' }))
      .finally(onDone);
  }, [client, zone, bucket, objectKey, onDone, t, demo]);
  return null;
}
