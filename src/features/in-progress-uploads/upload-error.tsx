import { Link } from '../../lib/router.tsx';
import { ApiError } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useConnectedSession } from '../../hooks/session.ts';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/**
 * ErrorNotice plus what the generic explanation cannot know: an upload that vanished was completed or
 * aborted elsewhere (ref §8.4 `upload_not_exists`), and a refused signed request on a public bucket is the
 * key's own permissions at work (ref §10: credentials are judged as that user, never as anonymous).
 */
export function UploadErrorNotice({ error, listHref, onRetry }: { error: unknown; listHref: string; onRetry?: () => void }) {
  const { t } = useI18n();
  const session = useConnectedSession();
  if (error instanceof ApiError && error.code === 'upload_not_exists') {
    return (
      <div data-testid="upload-gone">
        <ErrorNotice error={error} title={t('multipart.gone.title')} />
        <p>{t('multipart.gone.explain')}</p>
        <Link to={listHref}>{t('multipart.backToList')}</Link>
      </div>
    );
  }
  const refused = error instanceof ApiError && (error.status === 401 || error.status === 403);
  return (
    <div>
      <ErrorNotice error={error} {...(onRetry && !refused ? { onRetry } : {})} />
      {refused ? (
        <p data-testid="permission-hint">{session.mode === 'anonymous' ? t('multipart.denied.anonymous') : t('multipart.denied.signed')}</p>
      ) : null}
    </div>
  );
}
