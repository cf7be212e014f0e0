import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { CorsHelp } from '../../components/cors-help-lazy.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { SkeletonRows } from '../../components/spinner.tsx';
import { bucketPath } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { allBucketsQuery } from '../../api/service/queries.ts';
import { groupByZone } from './zones.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import '../../styles/buckets.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/connect.ts';

export function BucketListPage() {
  const { t, tp, formatDateTime } = useI18n();
  const session = useConnectedSession();
  const client = useClient();
  const query = useQuery(allBucketsQuery(client));
  const zones = query.data ? groupByZone(query.data, session.zones) : [];

  return (
    <section className="buckets">
      <h1>{t('buckets.title')}</h1>
      {query.isPending ? <SkeletonRows label={t('app.loading')} columns={2} /> : null}
      {query.isError ? (
        <>
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} corsHelp={<CorsHelp />} />
          <p>{t('buckets.listUnavailable')}</p>
        </>
      ) : null}
      {query.data ? (
        <>
          <output className="buckets__count">{tp('buckets.count', query.data.length)}</output>
          {query.data.length === 0 ? <p>{t('buckets.empty')}</p> : null}
          {zones.map(([zone, buckets]) => (
            <ZoneSection key={zone} zone={zone}>
              {buckets.length === 0 ? (
                <p>{t('buckets.emptyZone')}</p>
              ) : (
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">{t('buckets.name')}</th>
                      <th scope="col">{t('buckets.created')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {buckets.map((bucket) => (
                      <tr key={bucket.name}>
                        <td>
                          <Link to={bucketPath(zone, bucket.name)}>{bucket.name}</Link>
                        </td>
                        <td>{bucket.created ? formatDateTime(new Date(bucket.created)) : t('common.none')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </ZoneSection>
          ))}
        </>
      ) : null}
      <OpenBucketForm zones={zones.map(([z]) => z).concat(session.zones)} />
    </section>
  );
}

function ZoneSection({ zone, children }: { zone: string; children: React.ReactNode }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <section className="buckets__zone" aria-labelledby={id}>
      <h2 id={id}>{t('buckets.zone', { zone })}</h2>
      {children}
    </section>
  );
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{4,61}[a-z0-9]$/;

/** Needed where the bucket list is not readable (CORS on the service host, or a key without that right). */
function OpenBucketForm({ zones }: { zones: string[] }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const unique = [...new Set(zones)];
  const [zone, setZone] = useState(unique[0] ?? '');
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState(false);
  const zoneId = useId();
  const nameId = useId();
  const errorId = useId();
  const listId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!BUCKET_NAME.test(trimmed) || !zone.trim()) {
      setInvalid(true);
      return;
    }
    navigate(bucketPath(zone.trim(), trimmed));
  };

  return (
    <form className="inline-form" onSubmit={onSubmit} aria-label={t('buckets.openByName')} noValidate>
      <h2>{t('buckets.openByName')}</h2>
      <div className="inline-form__fields">
        <label htmlFor={zoneId}>{t('buckets.openByNameZone')}</label>
        <input id={zoneId} list={listId} value={zone} onChange={(e) => setZone(e.target.value)} size={8} />
        <datalist id={listId}>
          {unique.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </datalist>
        <label htmlFor={nameId}>{t('buckets.openByNameBucket')}</label>
        <input
          id={nameId}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setInvalid(false);
          }}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="button">
          {t('buckets.open')}
        </button>
      </div>
      {invalid ? (
        <p id={errorId} className="field-error">
          {t('connect.error.bucket')}
        </p>
      ) : null}
    </form>
  );
}
