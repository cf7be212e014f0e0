import { browseHref } from '../../hooks/browse-location.ts';
import { Banner } from '../../components/ui/banner.tsx';
import { buttonClass } from '../../components/ui/button.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { Link } from '../../lib/router.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import { parentOf } from './upload-detail-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/**
 * Where a completed or aborted upload leaves the user: what happened, and the next steps (the new object or
 * its folder, the remaining in-progress uploads), never a dead end.
 */
export function UploadOutcome({ kind, zone, bucket, objectKey: key, listHref }: { kind: 'completed' | 'aborted'; zone: string; bucket: string; objectKey: string; listHref: string }) {
  const { t } = useI18n();
  const folderHref = browseHref({ zone, bucket, prefix: parentOf(key) });
  return (
    <section className="upload-detail" aria-labelledby="upload-detail-title">
      <h2 id="upload-detail-title" dir="auto">
        {visibleText(key)}
      </h2>
      <Banner
        tone="ok"
        actions={
          kind === 'completed' ? (
            <>
              <Link className={buttonClass('primary')} to={browseHref({ zone, bucket, prefix: parentOf(key), object: key })}>
                {t('multipart.openObject')}
              </Link>
              <Link className={buttonClass()} to={listHref}>
                {t('multipart.backToList')}
              </Link>
            </>
          ) : (
            <>
              <Link className={buttonClass('primary')} to={listHref}>
                {t('multipart.backToList')}
              </Link>
              <Link className={buttonClass()} to={folderHref}>
                {t('multipart.openFolder')}
              </Link>
            </>
          )
        }
      >
        <p>
          <output>{kind === 'completed' ? t('multipart.completed', { key }) : t('multipart.aborted', { key })}</output>
        </p>
      </Banner>
    </section>
  );
}
