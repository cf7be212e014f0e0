import { lazyView, usePreloadWhenIdle } from '../../components/lazy-view.tsx';
import { MultipartInspector, type ResumeContext } from '../../features/in-progress-uploads/multipart-inspector.tsx';
import { RequireSession } from '../require-session.tsx';

// The inspector offers "resume from a local file" through the uploads feature; features never import each other.
// The upload engine behind it (and its MD5 worker) is needed only when a user resumes, so it loads after the
// inspector's first rows: once the page is idle, or when the resume panel is first shown. Loaded before it,
// the engine cost this screen about 11 KiB gzip and delayed nothing the user asked for.
const ResumeFromFile = lazyView(async () => (await import('../../features/upload-queue/ui/resume-from-file.tsx')).ResumeFromFile);
const preloadWhenIdle = [ResumeFromFile] as const;

function renderResume(context: ResumeContext) {
  return (
    <ResumeFromFile
      zone={context.zone}
      bucket={context.bucket}
      objectKey={context.key}
      uploadId={context.uploadId}
      onCompleted={context.onCompleted}
    />
  );
}

export function MultipartRoute() {
  usePreloadWhenIdle(preloadWhenIdle);
  return (
    <RequireSession>
      <MultipartInspector renderResume={renderResume} />
    </RequireSession>
  );
}
