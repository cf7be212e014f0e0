import type { QsClient } from '../../../api/client.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useI18n, type I18n } from '../../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';
import { ConflictCheckError, RenameTooLongError, type KeyExists } from '../engine/index.ts';
import { objectExists } from '../../../api/objects/operations.ts';

/**
 * One listing per key (objectExists: a HEAD of a free key would log a 404 in the browser's console for every
 * file): true when an object stands there, false when none does. Any other failure (no permission to read, a
 * network error) is thrown: a key whose state is unknown is never treated as free, so a batch does not start
 * overwriting objects nobody was asked about.
 */
export function keyExistsVia(client: QsClient): KeyExists {
  return (upload, key) => objectExists(client, { bucket: upload.bucket, ...(upload.zone === undefined ? {} : { zone: upload.zone }), key });
}

/** The sentence for a failed conflict check or an impossible "keep both", or undefined for other errors. */
export function conflictCheckMessage(error: unknown, { t }: Pick<I18n, 't'>): string | undefined {
  if (error instanceof ConflictCheckError) return t('uploads.conflictCheck.failed', { key: error.key });
  if (error instanceof RenameTooLongError) return t('uploads.conflictCheck.tooLong', { keys: error.keys.join(', ') });
  return undefined;
}

/** Says why the batch did not start: which key could not be checked (with the service's answer), or which name is too long. */
export function ConflictCheckProblem({ error }: { error: unknown }) {
  const i18n = useI18n();
  const message = conflictCheckMessage(error, i18n);
  if (error instanceof ConflictCheckError) return <ErrorNotice error={error.reason} title={message} />;
  if (message !== undefined) {
    return (
      <p className="field-error" role="alert" dir="auto">
        {message}
      </p>
    );
  }
  return <ErrorNotice error={error} />;
}
