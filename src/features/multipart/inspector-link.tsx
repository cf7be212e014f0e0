import { Link } from '../../lib/router.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { uploadsHref } from './location.ts';

/** Toolbar link from a bucket's object list to its in-progress uploads (prefix carried over as the filter). */
export function InspectorLink({ zone, bucket, prefix }: { zone: string; bucket: string; prefix: string }) {
  const { t } = useI18n();
  return (
    <Link className="button" to={uploadsHref({ zone, bucket, prefix })}>
      {t('shell.openInspector')}
    </Link>
  );
}
