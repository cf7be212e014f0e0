import { useEffect, useId, useRef, useState } from 'react';
import { Loading } from '../../../components/spinner.tsx';
import { useClient } from '../../../hooks/use-client.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { UploadTable } from './upload-table.tsx';
import { useUploadSession, useUploadsSnapshot, type UploadSession } from './upload-session.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';

export interface ResumeFromFileProps {
  zone: string;
  bucket: string;
  objectKey: string;
  uploadId: string;
  /** Called once the resumed upload completed (the upload id no longer exists then). */
  onCompleted: () => void;
}

/**
 * "Resume from a local file" for an in-progress upload picked in the inspector: the engine lists the
 * parts on the server, compares their ETags with the local file's part MD5s, and sends only the missing
 * or mismatching parts before completing. A file that does not fit the uploaded parts is refused.
 */
export function ResumeFromFile(props: ResumeFromFileProps) {
  const { t } = useI18n();
  const session = useUploadSession(useClient());
  if (!session) return <Loading label={t('app.loading')} />;
  return <ResumeFromFileBody {...props} session={session} />;
}

function ResumeFromFileBody({ zone, bucket, objectKey, uploadId, onCompleted, session }: ResumeFromFileProps & { session: UploadSession }) {
  const { t } = useI18n();
  const snapshot = useUploadsSnapshot(session.queue);
  const [itemId, setItemId] = useState<string | null>(null);
  const id = useId();
  const item = snapshot.items.find((i) => i.id === itemId) ?? snapshot.items.find((i) => i.multipart?.uploadId === uploadId && i.state !== 'cancelled');
  const done = item?.state === 'done';

  const reported = useRef(false);
  useEffect(() => {
    if (!done || reported.current) return;
    reported.current = true;
    onCompleted();
  }, [done, onCompleted]);

  return (
    <section className="uploads__resume" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>{t('uploads.resumeFromFile')}</h4>
      <p className="field-hint">{t('uploads.resumeFromFileHint')}</p>
      {!item || item.state === 'failed' ? (
        <div className="field">
          <label htmlFor={id}>{t('uploads.resumeChoose')}</label>
          <input
            id={id}
            type="file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              setItemId(session.queue.resumeRemote({ zone, bucket, key: objectKey, uploadId }, file));
            }}
          />
        </div>
      ) : null}
      {item ? (
        <UploadTable items={[item]} queue={session.queue} />
      ) : null}
    </section>
  );
}
