import { ResumeFromFile } from '../../features/uploads/ui/resume-from-file.tsx';
import { MultipartInspector, type ResumeContext } from '../../features/multipart/multipart-inspector.tsx';
import { RequireSession } from '../require-session.tsx';

// The inspector offers "resume from a local file" through the uploads feature; features never import each other.
// It stays in this route's code: loaded lazily it made an upload's deep link ~100 ms slower to its first page
// of parts (bench/multipart-inspector.ts), for 10 KiB less on the list.

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
