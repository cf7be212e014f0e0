import { Link } from '../../lib/router.tsx';
import { browseHref } from '../../hooks/browse-location.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';

/** All buckets › bucket › folder › folder; each crumb is a deep link, the last one is the current page. */
export function Breadcrumbs({ zone, bucket, prefix, flat, showAllBuckets }: {
  zone: string;
  bucket: string;
  prefix: string;
  flat: boolean;
  showAllBuckets: boolean;
}) {
  const { t } = useI18n();
  const segments = prefix === '' ? [] : prefix.replace(/\/$/, '').split('/');
  const crumbs = segments.map((name, i) => ({ name, prefix: `${segments.slice(0, i + 1).join('/')}/` }));
  return (
    <nav aria-label={t('browser.breadcrumbs')} className="breadcrumbs">
      <ol>
        {showAllBuckets ? (
          <li>
            <Link to="/">{t('browser.allBuckets')}</Link>
          </li>
        ) : null}
        <li>
          {crumbs.length === 0 ? (
            <span aria-current="page">{visibleText(bucket)}</span>
          ) : (
            <Link to={browseHref({ zone, bucket, flat })}>{visibleText(bucket)}</Link>
          )}
          <span className="breadcrumbs__zone"> ({visibleText(zone)})</span>
        </li>
        {crumbs.map((crumb, i) => (
          <li key={crumb.prefix}>
            {i === crumbs.length - 1 ? (
              <span aria-current="page" dir="auto">
                {visibleText(crumb.name) || '∅'}
              </span>
            ) : (
              <Link to={browseHref({ zone, bucket, prefix: crumb.prefix, flat })} dir="auto">
                {visibleText(crumb.name) || '∅'}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
