import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/errors.ts';
import { listParts } from '../../../api/multipart/operations.ts';
import { rememberedUploadsKey } from '../../../api/multipart/queries.ts';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import type { ResumeRecord } from '../engine/index.ts';
import type { UploadSession } from './upload-session.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';
import { visibleText } from '../../../lib/visible-text.ts';

/**
 * Unfinished multipart uploads this browser remembers for the bucket (IndexedDB, survives reloads). Each
 * is checked against the server first: one that was completed or aborted elsewhere (`upload_not_exists`)
 * is forgotten instead of being offered. Choosing the same file again resumes it.
 */
export function RememberedUploads({ session, bucket }: { session: UploadSession; bucket: string }) {
  const { t, formatDateTime } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const snapshot = session.queue.getSnapshot();
  const active = new Set(snapshot.items.filter((i) => i.state !== 'done' && i.state !== 'cancelled').map((i) => i.multipart?.uploadId));
  const queryKey = rememberedUploadsKey(session.scope, bucket);
  const remembered = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const records = (await session.queue.listResumable()).filter((r) => r.bucket === bucket);
      const alive: ResumeRecord[] = [];
      for (const record of records) {
        try {
          await listParts(client, { zone: record.zone, bucket: record.bucket, key: record.key, uploadId: record.uploadId, limit: 1 }, { signal });
          alive.push(record);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'upload_not_exists') await session.queue.forgetResumable(record);
          else alive.push(record);
        }
      }
      return alive;
    },
  });
  const records = (remembered.data ?? []).filter((r) => !active.has(r.uploadId));
  if (records.length === 0) return null;

  const forget = async (record: ResumeRecord, abortRemote: boolean) => {
    setBusy(record.uploadId);
    try {
      await session.queue.forgetResumable(record, { abortRemote });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey });
    }
  };

  return (
    <section className="notice" aria-labelledby="remembered-title">
      <h3 id="remembered-title">{t('uploads.remembered')}</h3>
      <p className="field-hint">{t('uploads.rememberedHint')}</p>
      <ul className="uploads__remembered">
        {records.map((record) => (
          <li key={record.uploadId}>
            <span dir="auto">
              <strong>{visibleText(record.key)}</strong>
            </span>{' '}
            {t('uploads.rememberedLine', {
              name: record.fingerprint.name,
              size: formatBytes(record.fingerprint.size),
              started: formatDateTime(new Date(record.createdAt)),
            })}{' '}
            <button type="button" className="button button--small" disabled={busy === record.uploadId} onClick={() => void forget(record, false)}>
              {t('uploads.forget')}
            </button>{' '}
            <button type="button" className="button button--small" disabled={busy === record.uploadId} onClick={() => void forget(record, true)}>
              {t('uploads.forgetAndAbort')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
