import { lazy, Suspense } from 'react';
import { Loading } from '../../components/spinner.tsx';
import { MultipartInspector, type ResumeContext } from '../../features/multipart/multipart-inspector.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { RequireSession } from '../require-session.tsx';

// The inspector offers "resume from a local file" through the uploads feature; features never import each other.
// It brings the upload engine, so it loads when an upload is opened, not with the list.
const ResumeFromFile = lazy(async () => ({ default: (await import('../../features/uploads/ui/resume-from-file.tsx')).ResumeFromFile }));

function Resume({ context }: { context: ResumeContext }) {
  const { t } = useI18n();
  return (
    <Suspense fallback={<Loading label={t('app.loading')} />}>
      <ResumeFromFile
        zone={context.zone}
        bucket={context.bucket}
        objectKey={context.key}
        uploadId={context.uploadId}
        onCompleted={context.onCompleted}
      />
    </Suspense>
  );
}

function renderResume(context: ResumeContext) {
  return <Resume context={context} />;
}

export function UploadsRoute() {
  return (
    <RequireSession>
      <MultipartInspector renderResume={renderResume} />
    </RequireSession>
  );
}
