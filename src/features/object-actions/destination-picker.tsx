import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { listObjectsInfiniteQuery } from '../../api/objects/queries.ts';
import { allBucketsQuery } from '../../api/service/queries.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Loading } from '../../components/spinner.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/picker.ts';
import { visibleText } from '../../lib/visible-text.ts';

/** A folder chosen as a copy's or move's destination: '' is the bucket's root, otherwise it ends in '/'. */
export interface PickedFolder {
  bucket: string;
  prefix: string;
}

/** One row of a PickList. */
interface PickOption {
  id: string;
  label: string;
  /** Shown after the label (a zone, a reason). */
  detail?: string;
  /** Shown and focusable, but not chosen: `detail` says why. */
  disabled?: boolean;
}

/**
 * A list of row buttons with one Tab stop (the row last focused): ArrowUp/ArrowDown/Home/End move between
 * rows, Enter, Space or a click chooses one. A disabled row stays focusable (aria-disabled) so its reason
 * is read, but choosing it does nothing.
 */
function PickList({ label, options, onChoose, empty }: { label: string; options: readonly PickOption[]; onChoose: (option: PickOption) => void; empty: string }) {
  const [active, setActive] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.min(active, Math.max(0, options.length - 1));
  if (options.length === 0) return <p className="picker__empty">{empty}</p>;
  const move = (index: number) => {
    const next = Math.max(0, Math.min(options.length - 1, index));
    setActive(next);
    refs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(current + 1),
      ArrowUp: () => move(current - 1),
      Home: () => move(0),
      End: () => move(options.length - 1),
    };
    const action = keys[event.key];
    if (!action) return;
    // The arrows must not scroll the dialog.
    event.preventDefault();
    action();
  };
  return (
    <ul aria-label={label} className="picker__list">
      {options.map((option, index) => (
        <li key={option.id}>
          <button
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            aria-disabled={option.disabled ? true : undefined}
            tabIndex={index === current ? 0 : -1}
            className={`picker__option${option.disabled ? ' picker__option--disabled' : ''}`}
            onFocus={() => setActive(index)}
            onKeyDown={onKeyDown}
            onClick={() => {
              if (!option.disabled) onChoose(option);
            }}
          >
            <span className="picker__label" dir="auto">
              {visibleText(option.label)}
            </span>
            {option.detail !== undefined ? <span className="picker__detail">{option.detail}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

type View = { kind: 'buckets' } | { kind: 'folders'; bucket: string; prefix: string };

/**
 * Chooses the bucket and folder a copy or move writes into. The buckets are those of every zone the
 * account's bucket list names; copies and moves stay within one zone, so a bucket of another zone is
 * shown disabled with that reason. Inside a bucket, folders are listed with delimiter "/" (page by page),
 * walked with the breadcrumb, and a new folder is only a name typed here: the copy's key creates it.
 */
export function DestinationPicker({ zone, initial, onPick, onCancel }: {
  /** The source's zone: the only zone a destination can be in. */
  zone: string;
  initial: PickedFolder;
  onPick: (picked: PickedFolder) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const [view, setView] = useState<View>(initial.bucket === '' ? { kind: 'buckets' } : { kind: 'folders', ...initial });
  const regionRef = useRef<HTMLElement>(null);
  // The picker opens in place of nothing: put the keyboard on it.
  useEffect(() => regionRef.current?.focus(), []);
  const crumbs: { label: string; view: View }[] = [{ label: t('picker.allBuckets'), view: { kind: 'buckets' } }];
  if (view.kind === 'folders') {
    crumbs.push({ label: view.bucket, view: { kind: 'folders', bucket: view.bucket, prefix: '' } });
    const parts = view.prefix.split('/').filter((part) => part !== '');
    parts.forEach((part, i) => crumbs.push({ label: part, view: { kind: 'folders', bucket: view.bucket, prefix: `${parts.slice(0, i + 1).join('/')}/` } }));
  }
  return (
    <section ref={regionRef} tabIndex={-1} className="picker" aria-labelledby={headingId} data-testid="destination-picker">
      <h3 id={headingId} className="picker__title">
        {t('picker.title')}
      </h3>
      <nav aria-label={t('picker.path')}>
        <ol className="picker__crumbs">
          {crumbs.map((crumb, i) => (
            <li key={`${i}\u0000${crumb.label}`}>
              {i === crumbs.length - 1 ? (
                <span aria-current="location" dir="auto">
                  {visibleText(crumb.label)}
                </span>
              ) : (
                <button type="button" className="button button--small button--ghost" dir="auto" onClick={() => setView(crumb.view)}>
                  {visibleText(crumb.label)}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {view.kind === 'buckets' ? (
        <BucketList zone={zone} onOpen={(bucket) => setView({ kind: 'folders', bucket, prefix: '' })} />
      ) : (
        <FolderList key={`${view.bucket}\u0000${view.prefix}`} zone={zone} bucket={view.bucket} prefix={view.prefix} onOpen={(prefix) => setView({ ...view, prefix })} />
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel}>
          {t('picker.cancel')}
        </button>
        {view.kind === 'folders' ? (
          <button type="button" className="button button--primary" onClick={() => onPick({ bucket: view.bucket, prefix: view.prefix })}>
            {t('picker.use', { location: `${view.bucket}/${view.prefix}` })}
          </button>
        ) : null}
      </div>
    </section>
  );
}

function BucketList({ zone, onOpen }: { zone: string; onOpen: (bucket: string) => void }) {
  const { t } = useI18n();
  const client = useClient();
  const buckets = useQuery({ ...allBucketsQuery(client), staleTime: 60_000 });
  const id = useId();
  const [filter, setFilter] = useState('');
  if (buckets.isError) {
    return (
      <>
        <ErrorNotice error={buckets.error} onRetry={() => void buckets.refetch()} />
        <p className="field-hint">{t('picker.bucketsUnreadable')}</p>
      </>
    );
  }
  if (!buckets.data) return <Loading label={t('picker.loadingBuckets')} />;
  // This zone's buckets first, then the others (each by name): the ones that can be chosen lead.
  const needle = filter.trim().toLowerCase();
  const sorted = buckets.data.filter((bucket) => bucket.name.includes(needle)).sort((a, b) => Number(a.location !== zone) - Number(b.location !== zone) || a.name.localeCompare(b.name));
  const options: PickOption[] = sorted.map((bucket) => ({
    id: bucket.name,
    label: bucket.name,
    ...(bucket.location === zone
      ? { detail: bucket.location }
      : { detail: t('picker.otherZone', { bucketZone: bucket.location, zone }), disabled: true }),
  }));
  return (
    <>
      <div className="picker__filter">
        <label htmlFor={`${id}-f`}>{t('picker.filterBuckets')}</label>
        <input
          id={`${id}-f`}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          onKeyDown={(e) => {
            // Enter must not submit the dialog's form.
            if (e.key === 'Enter') e.preventDefault();
          }}
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <PickList label={t('picker.buckets')} options={options} empty={needle === '' ? t('picker.noBuckets') : t('picker.noMatch', { filter: filter.trim() })} onChoose={(option) => onOpen(option.id)} />
    </>
  );
}

function FolderList({ zone, bucket, prefix, onOpen }: { zone: string; bucket: string; prefix: string; onOpen: (prefix: string) => void }) {
  const { t } = useI18n();
  const client = useClient();
  const id = useId();
  // A bucket typed by hand may be in another zone: said with the reason, not listed through the wrong zone.
  const bucketZone = useQuery({ ...allBucketsQuery(client), staleTime: 60_000, enabled: client.connection.credentials !== undefined }).data?.find((b) => b.name === bucket)?.location;
  const otherZone = bucketZone !== undefined && bucketZone !== zone;
  const listing = useInfiniteQuery({ ...listObjectsInfiniteQuery(client, { zone, bucket, prefix, delimiter: '/' }), enabled: !otherZone });
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState(false);
  const addFolder = () => {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.includes('/')) {
      setNameError(true);
      return;
    }
    onOpen(`${prefix}${trimmed}/`);
  };
  if (otherZone) {
    return (
      <p className="field-error" role="alert">
        {t('actions.otherZone', { bucket, bucketZone, zone })}
      </p>
    );
  }
  let list: ReactNode;
  if (listing.isError) list = <ErrorNotice error={listing.error} onRetry={() => void listing.refetch()} />;
  else if (!listing.data) list = <Loading label={t('picker.loadingFolders')} />;
  else {
    const folders = listing.data.pages.flatMap((page) => page.common_prefixes);
    const options: PickOption[] = folders.map((folder) => ({ id: folder, label: folder.slice(prefix.length) }));
    list = (
      <>
        <PickList label={t('picker.folders', { location: `${bucket}/${prefix}` })} options={options} empty={t('picker.noFolders')} onChoose={(option) => onOpen(option.id)} />
        {listing.hasNextPage ? (
          <button type="button" className="button button--small" disabled={listing.isFetchingNextPage} onClick={() => void listing.fetchNextPage()}>
            {t('picker.more')}
          </button>
        ) : null}
      </>
    );
  }
  return (
    <>
      {list}
      <div className="picker__new">
        <label htmlFor={`${id}-n`}>{t('picker.newFolder')}</label>
        <div className="picker__new-row">
          <input
            id={`${id}-n`}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameError(false);
            }}
            onKeyDown={(e) => {
              // Enter opens the typed folder instead of submitting the dialog's form.
              if (e.key !== 'Enter') return;
              e.preventDefault();
              addFolder();
            }}
            dir="auto"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={`${id}-h`}
          />
          <button type="button" className="button" onClick={addFolder}>
            {t('picker.openNew')}
          </button>
        </div>
        <p id={`${id}-h`} className={nameError ? 'field-error' : 'field-hint'}>
          {nameError ? t('picker.newFolderInvalid') : t('picker.newFolderHint')}
        </p>
      </div>
    </>
  );
}
