import { MultipartInspector, type ResumeContext } from '../../features/multipart/multipart-inspector.tsx';
import { ResumeFromFile } from '../../features/uploads/ui/resume-from-file.tsx';
import { RequireSession } from '../require-session.tsx';

// The inspector offers "resume from a local file" through the uploads feature; features never import each other.
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

export function UploadsRoute() {
  return (
    <RequireSession>
      <MultipartInspector renderResume={renderResume} />
    </RequireSession>
  );
}
