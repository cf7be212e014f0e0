import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { visibleText } from '../../lib/visible-text.ts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useNavigate } from '../../lib/router.tsx';
import { z } from 'zod';
import { ApiError } from '../../api/errors.ts';
import { abortMultipartUpload, completeMultipartUpload, type UploadRef } from '../../api/multipart/operations.ts';
import { uploadKey, uploadListsKey } from '../../api/multipart/queries.ts';
import { MAX_LIST_PARTS_LIMIT, MAX_PART_NUMBER, type ObjectPart } from '../../api/multipart/schemas.ts';
import { objectKey, objectListsKey } from '../../api/objects/queries.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { Loading } from '../../components/spinner.tsx';
import { browseHref } from '../../hooks/browse-location.ts';
import { useConnectedSession } from '../../hooks/session.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { partScanQuery, partsPageQuery, scanProgressStore, uploadInfoQuery, type ScanProgressStore } from './queries.ts';
import { uploadsHref } from './location.ts';
import { PartMap } from './part-map.tsx';
import { DEMO_MIN_PART_SIZE } from '../../api/protocol/demo.ts';
import { MIN_PART_SIZE } from '../../api/protocol/limits.ts';
import { completeVerdict, formatRanges, parsePartSelection, presentRanges, selectParts, type PartScan } from './part-scan.ts';
import { UploadErrorNotice } from './upload-error.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';
import { NumberForm, wholeNumberIn } from './number-form.tsx';

export const partsLimitSchema = z.object({
  limit: z.coerce.number<string>().int().min(1).max(MAX_LIST_PARTS_LIMIT),
});

export interface ResumeContext {
  zone: string;
  bucket: string;
  key: string;
  uploadId: string;
  /** Called after a resumed upload completed, so the inspector can leave the (now gone) upload. */
  onCompleted: () => void;
}

export function UploadDetail({ zone, bucket, objectKey: key, uploadId, limit, after, prefix, renderResume }: {
  zone: string;
  bucket: string;
  objectKey: string;
  uploadId: string;
  limit: number;
  after: number | null;
  prefix: string;
  renderResume?: ((context: ResumeContext) => ReactNode) | undefined;
}) {
  const { t, tp, formatDateTime, formatNumber } = useI18n();
  const client = useClient();
  const session = useConnectedSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ref: UploadRef = { zone, bucket, key, uploadId };
  // Scan progress lives outside this component's state: only the counting line re-renders on each page
  // (and the scan may have started at boot, before this view).
  const progress = scanProgressStore(client, queryClient, ref);
  const [outcome, setOutcome] = useState<{ kind: 'completed' | 'aborted'; requestId: string } | null>(null);
  const [history, setHistory] = useState<Array<number | null>>([]);
  const [jumpedTo, setJumpedTo] = useState<number | null>(null);
  const [choice, setChoice] = useState<'all' | 'some'>('all');
  const selectionId = useId();
  const [selectionText, setSelectionText] = useState('');
  const [minPartSize, setMinPartSize] = useState(session.mode === 'demo' ? DEMO_MIN_PART_SIZE : MIN_PART_SIZE);
  const [confirmAbort, setConfirmAbort] = useState(false);

  const enabled = outcome === null;
  // The previous page stays on screen while the next loads: no 1,000-row unmount/remount flash.
  const page = useQuery({ ...partsPageQuery(client, ref, limit, after), enabled, placeholderData: keepPreviousData });
  const scan = useQuery({ ...partScanQuery(client, queryClient, ref), enabled });
  const info = useQuery({ ...uploadInfoQuery(client, ref), enabled, retry: false });

  const leaveUpload = (kind: 'completed' | 'aborted', requestId: string) => {
    setOutcome({ kind, requestId });
    // The upload is gone: drop its cached queries instead of refetching them into upload_not_exists.
    queryClient.removeQueries({ queryKey: uploadKey(client, bucket, key, uploadId) });
    void queryClient.invalidateQueries({ queryKey: uploadListsKey(client, bucket) });
    void queryClient.invalidateQueries({ queryKey: objectListsKey(client, bucket) });
    void queryClient.invalidateQueries({ queryKey: objectKey(client, bucket, key) });
  };

  const complete = useMutation({
    mutationFn: (parts: PartScan) =>
      completeMultipartUpload(client, { ...ref, parts: Array.from(parts.numbers, (n, i) => ({ partNumber: n, etag: parts.etags[i] || undefined })) }),
    onSuccess: (result) => leaveUpload('completed', result.requestId),
  });
  const abort = useMutation({
    mutationFn: () => abortMultipartUpload(client, ref),
    onSuccess: (result) => {
      setConfirmAbort(false);
      leaveUpload('aborted', result.requestId);
    },
  });

  const listHref = uploadsHref({ zone, bucket, prefix });
  const pageHref = (marker: number | null, pageLimit = limit) => uploadsHref({ zone, bucket, prefix, upload: uploadId, key, limit: pageLimit, after: marker });

  if (outcome) {
    return (
      <section className="upload-detail" aria-labelledby="upload-detail-title">
        <h2 id="upload-detail-title">{visibleText(key)}</h2>
        <div className="notice notice--ok">
          <p>
            <output>{outcome.kind === 'completed' ? t('multipart.completed', { key }) : t('multipart.aborted', { key })}</output>
          </p>
          {outcome.requestId ? (
            <p>
              {t('error.requestId')}: <code>{outcome.requestId}</code>
            </p>
          ) : null}
          <div className="notice__actions">
            {outcome.kind === 'completed' ? (
              <Link className="button" to={browseHref({ zone, bucket, prefix: parentOf(key), object: key })}>
                {t('multipart.openObject')}
              </Link>
            ) : null}
            <Link className="button" to={listHref}>
              {t('multipart.backToList')}
            </Link>
          </div>
        </div>
      </section>
    );
  }

  const pageError = page.error ?? scan.error;
  const parts = page.data?.object_parts ?? [];
  const lastOnPage = parts.at(-1)?.part_number;
  const scanData = scan.data;
  // ref §8.4 has no has_more: a full page may be the last one. Once all parts are counted we know.
  const lastPartNumber = scanData && scanData.numbers.length > 0 ? scanData.numbers[scanData.numbers.length - 1] : undefined;
  const hasNext = !page.isPlaceholderData && parts.length >= limit && lastOnPage !== undefined && (scanData === undefined || lastOnPage !== lastPartNumber);
  const pageIndex = scanData && parts[0] !== undefined ? Math.floor(scanData.numbers.indexOf(parts[0].part_number) / limit) : null;
  const pageCount = scanData ? Math.max(1, Math.ceil(scanData.numbers.length / limit)) : null;

  // Previous page: exact from the scanned part list when it is there, else from the pages visited here.
  const previousMarker = (): number | null | undefined => {
    if (after === null) return undefined;
    if (scanData && parts[0] !== undefined) {
      const index = scanData.numbers.indexOf(parts[0].part_number);
      const start = Math.max(0, index - limit);
      return start === 0 ? null : (scanData.numbers[start - 1] ?? null);
    }
    return history.length > 0 ? (history.at(-1) ?? null) : null;
  };
  const goNext = () => {
    if (lastOnPage === undefined) return;
    setHistory((h) => [...h, after]);
    navigate(pageHref(lastOnPage));
  };
  // Jump to a part: the page that holds it (aligned with the pages above when all parts are counted), with its
  // row (or the next present part, if it is missing) marked.
  const jumpTo = (wanted: number) => {
    setJumpedTo(wanted);
    setHistory([]);
    if (scanData) {
      const numbers = scanData.numbers;
      let index = numbers.findIndex((n) => n >= wanted);
      if (index < 0) index = Math.max(0, numbers.length - 1);
      const start = Math.floor(index / limit) * limit;
      navigate(pageHref(start === 0 ? null : (numbers[start - 1] ?? null)));
      return;
    }
    navigate(pageHref(wanted <= 0 ? null : wanted - 1));
  };
  const goPrevious = () => {
    const marker = previousMarker();
    if (marker === undefined) return;
    setHistory((h) => h.slice(0, -1));
    navigate(pageHref(marker));
  };

  // Complete with every present part, or with the parts the user lists ("1-100, 150").
  const selection = choice === 'some' ? parsePartSelection(selectionText, MAX_PART_NUMBER) : null;
  const picked = scanData && selection?.ok ? selectParts(scanData, selection.ranges) : null;
  const chosen = choice === 'all' ? scanData : picked?.selected;
  const verdict = chosen ? completeVerdict(chosen, minPartSize) : null;

  return (
    <section className="upload-detail" aria-labelledby="upload-detail-title">
      <p>
        <Link to={listHref}>{t('multipart.backToList')}</Link>
      </p>
      <h2 id="upload-detail-title" dir="auto">
        {visibleText(key)}
      </h2>
      <dl className="upload-detail__facts">
        <dt>{t('multipart.key')}</dt>
        <dd dir="auto">
          <code>{visibleText(key)}</code> <CopyButton text={key} label={t('multipart.copyKey')} />
        </dd>
        <dt>{t('multipart.uploadId')}</dt>
        <dd>
          <code data-testid="upload-id">{uploadId}</code> <CopyButton text={uploadId} label={t('multipart.copyUploadId')} />
        </dd>
        <dt>{t('multipart.initiated')}</dt>
        <dd>
          {info.data?.created
            ? formatDateTime(new Date(info.data.created))
            : info.isPending
              ? t('app.loading')
              : info.error instanceof ApiError && (info.error.status === 401 || info.error.status === 403)
                ? t('multipart.initiatedHidden')
                : t('common.none')}
        </dd>
      </dl>

      {pageError ? <UploadErrorNotice error={pageError} listHref={listHref} onRetry={() => void Promise.all([page.refetch(), scan.refetch()])} /> : null}

      <section className="upload-detail__totals" aria-labelledby="totals-title">
        <h3 id="totals-title">{t('multipart.totals')}</h3>
        {scan.isPending && !scan.isError ? (
          <p>
            <ScanProgressText store={progress} />
          </p>
        ) : null}
        {scanData ? (
          <>
            <p data-testid="totals">
              {t('multipart.totalsText', { parts: tp('multipart.partCount', scanData.numbers.length), bytes: formatBytes(scanData.totalBytes), exact: formatNumber(scanData.totalBytes), pages: tp('multipart.pagesPhrase', scanData.pages) })}
            </p>
            <PartMap numbers={scanData.numbers} />
          </>
        ) : null}
      </section>

      <section className="upload-detail__actions" aria-labelledby="actions-title">
        <h3 id="actions-title">{t('multipart.actions')}</h3>
        {session.mode === 'demo' ? <MinPartSizeChoice value={minPartSize} onChange={setMinPartSize} /> : null}
        {verdict && !verdict.ok ? (
          <p className="notice notice--warn" data-testid="complete-verdict">
            {verdict.reason === 'empty'
              ? t('multipart.cannotComplete.empty')
              : t('multipart.cannotComplete.small', { parts: formatRanges(verdict.parts, formatNumber, 20).text, min: formatBytes(minPartSize) })}
          </p>
        ) : null}
        <p className="field-hint">{t('multipart.completeRule', { min: formatBytes(minPartSize) })}</p>
        <fieldset className="complete-choice">
          <legend>{t('multipart.completeWith')}</legend>
          <label>
            <input type="radio" name="complete-choice" checked={choice === 'all'} onChange={() => setChoice('all')} /> {t('multipart.completeAll')}
          </label>
          <label>
            <input type="radio" name="complete-choice" checked={choice === 'some'} onChange={() => setChoice('some')} /> {t('multipart.completeSome')}
          </label>
          {choice === 'some' ? (
            <div className="complete-choice__parts">
              <label htmlFor={`${selectionId}-parts`}>{t('multipart.completeSomeLabel')}</label>
              <input
                id={`${selectionId}-parts`}
                value={selectionText}
                onChange={(e) => setSelectionText(e.target.value)}
                placeholder="1-100, 150"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={selectionText.trim() !== '' && selection?.ok === false ? true : undefined}
                aria-describedby={`${selectionId}-parts-note`}
              />
              <p id={`${selectionId}-parts-note`} className="field-hint" data-testid="complete-selection">
                {selectionText.trim() === ''
                  ? t('multipart.completeSomeHint')
                  : selection && !selection.ok
                    ? t('multipart.completeSomeError', { item: selection.item })
                    : picked
                      ? `${tp('multipart.completeSomePicked', picked.selected.numbers.length)}${picked.absent.length > 0 ? ` ${tp('multipart.completeSomeAbsent', picked.absent.length, { parts: formatRanges(presentRanges(picked.absent), formatNumber, 10).text })}` : ''}`
                      : ''}
              </p>
            </div>
          ) : null}
        </fieldset>
        <div className="notice__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!verdict?.ok || complete.isPending}
            onClick={() => {
              if (chosen) complete.mutate(chosen);
            }}
          >
            {complete.isPending ? t('multipart.completing') : tp('multipart.complete', chosen?.numbers.length ?? 0)}
          </button>
          <button type="button" className="button" onClick={() => setConfirmAbort(true)}>
            {t('multipart.abort')}
          </button>
        </div>
        {complete.error ? <UploadErrorNotice error={complete.error} listHref={listHref} /> : null}
        {renderResume
          ? renderResume({ zone, bucket, key, uploadId, onCompleted: () => leaveUpload('completed', '') })
          : null}
      </section>

      <section className="upload-detail__parts" aria-labelledby="parts-title">
        <h3 id="parts-title">{t('multipart.parts')}</h3>
        <LimitForm limit={limit} onApply={(value) => navigate(pageHref(null, value))} />
        <nav className="pager" aria-label={t('multipart.partsPages')}>
          <button type="button" className="button" disabled={after === null} onClick={() => navigate(pageHref(null))}>
            {t('multipart.firstPage')}
          </button>
          <button type="button" className="button" disabled={after === null} onClick={goPrevious}>
            {t('multipart.previousPage')}
          </button>
          <button type="button" className="button" disabled={!hasNext} onClick={goNext}>
            {t('multipart.nextPage')}
          </button>
          <JumpForm onJump={jumpTo} />
          <output data-testid="page-status">
            {page.data && !page.isPlaceholderData
              ? pageIndex !== null && pageCount !== null && pageIndex >= 0
                ? tp('multipart.pageOf', parts.length, { page: pageIndex + 1, pages: pageCount })
                : tp('multipart.pageCount', parts.length)
              : ''}
          </output>
        </nav>
        {page.isPending ? <Loading label={t('app.loading')} /> : null}
        {page.data ? <PartsTable parts={parts} lastPartNumber={lastPartNumber} jumpedTo={jumpedTo} /> : null}
        {page.data && parts.length === 0 ? <p>{t('multipart.noParts')}</p> : null}
      </section>

      <Dialog open={confirmAbort} onClose={() => setConfirmAbort(false)} title={t('multipart.abortTitle')}>
        <p>{tp('multipart.abortWarning', scanData?.numbers.length ?? 0, { key, bytes: scanData ? formatBytes(scanData.totalBytes) : '?' })}</p>
        {abort.error ? <UploadErrorNotice error={abort.error} listHref={listHref} /> : null}
        <div className="notice__actions">
          <button type="button" className="button button--danger" disabled={abort.isPending} onClick={() => abort.mutate()}>
            {abort.isPending ? t('multipart.aborting') : t('multipart.abortConfirm')}
          </button>
          <button type="button" className="button" onClick={() => setConfirmAbort(false)}>
            {t('common.cancel')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function ScanProgressText({ store }: { store: ScanProgressStore }) {
  const { t, tp } = useI18n();
  const progress = useSyncExternalStore(store.subscribe, store.get);
  return (
    <output data-testid="scan-progress">
      {t('multipart.counting', { parts: tp('multipart.partCount', progress?.parts ?? 0), pages: tp('multipart.pagesPhrase', progress?.pages ?? 0), bytes: formatBytes(progress?.bytes ?? 0) })}
    </output>
  );
}

/** The most common size among the parts of a page (ties: the larger), the size the others are compared with. */
export function typicalSize(parts: readonly ObjectPart[]): number | undefined {
  const counts = new Map<number, number>();
  for (const part of parts) if (part.size !== undefined) counts.set(part.size, (counts.get(part.size) ?? 0) + 1);
  let best: number | undefined;
  let bestCount = 0;
  for (const [size, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== undefined && size > best)) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}

/** Every row's height in px, fixed in multipart.css (notes sit beside the value, not under it). */
const ROW_HEIGHT = 36;
/** Rows rendered above and below the visible ones, so a quick scroll or PageDown never shows a blank. */
const OVERSCAN_ROWS = 12;

/**
 * The rows of one page (up to 1,000), straight from that page's response, in a scrolling box of its own
 * that keeps only the visible rows (plus overscan) in the DOM: a 1,000-part page costs the DOM of a few
 * dozen rows. The table keeps its semantics: `aria-rowcount` gives the page's size and each row its
 * `aria-rowindex`; the empty space above and below the rendered rows is two hidden spacer rows.
 * Memoized on the page's parts: the scan's progress and its result re-render the inspector, not this.
 */
const PartsTable = memo(function PartsTable({ parts, lastPartNumber, jumpedTo }: { parts: readonly ObjectPart[]; lastPartNumber: number | undefined; jumpedTo: number | null }) {
  const { t, tp, formatDateTime, formatNumber } = useI18n();
  const scrollRef = useRef<HTMLElement>(null);
  const typical = typicalSize(parts);
  // The virtualizer's functions change identity on every scroll; this component is memoized on its props only.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: parts.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    // Before the box is measured (first render, tests without layout): a screenful of rows.
    initialRect: { width: 800, height: 20 * ROW_HEIGHT },
  });
  // The row a jump asked for: that part, or the next one present when it is missing.
  const targetIndex = jumpedTo === null ? -1 : parts.findIndex((part) => part.part_number >= jumpedTo);
  const target = targetIndex < 0 ? undefined : parts[targetIndex]?.part_number;
  // Another page starts at its top (the box would otherwise keep the last page's scroll position), unless
  // a jump is about to scroll to its row.
  const firstPart = parts[0]?.part_number;
  useEffect(() => {
    if (target === undefined) scrollRef.current?.scrollTo?.({ top: 0 });
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a new page resets the position
  }, [firstPart]);
  // Scrolled to once per jump: the box first (the row may not be rendered yet), then the page, once the row is there.
  const scrolledBox = useRef<number | undefined>(undefined);
  const scrolledPage = useRef<number | undefined>(undefined);
  const targetRow = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (target === undefined || targetIndex < 0) return;
    if (scrolledBox.current !== target) {
      scrolledBox.current = target;
      virtualizer.scrollToIndex(targetIndex, { align: 'center' });
    }
    if (targetRow.current && scrolledPage.current !== target) {
      scrolledPage.current = target;
      targetRow.current.scrollIntoView?.({ block: 'center' });
    }
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  return (
    // A scrolling box must be reachable by keyboard (arrows, PageDown, End scroll it once it has the focus).
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above
    <section className="table-scroll parts-scroll" ref={scrollRef} tabIndex={0} aria-label={t('multipart.partsScroll')}>
      <table className="table parts-table" aria-label={t('multipart.partsTable')} aria-rowcount={parts.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t('multipart.partNumber')}</th>
            <th scope="col">{t('multipart.size')}</th>
            <th scope="col">{t('multipart.created')}</th>
            <th scope="col">{t('multipart.etag')}</th>
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={before} />
          {items.map((item) => {
            const part = parts[item.index];
            if (!part) return null;
            const previous = item.index > 0 ? parts[item.index - 1]?.part_number : undefined;
            const missingBefore = previous === undefined ? 0 : part.part_number - previous - 1;
            // Every part but the last must have the common size; a different one is worth a look (QingStor
            // refuses Complete when a non-last part is under the minimum).
            const odd = typical !== undefined && part.size !== undefined && part.size !== typical && part.part_number !== lastPartNumber;
            return (
              <tr
                key={part.part_number}
                ref={part.part_number === target ? targetRow : undefined}
                aria-rowindex={item.index + 2}
                className={[part.part_number === target ? 'parts-table__target' : '', odd ? 'parts-table__odd' : '', missingBefore > 0 ? 'parts-table__after-gap' : ''].filter(Boolean).join(' ') || undefined}
                aria-current={part.part_number === target ? 'true' : undefined}
              >
                <td>
                  {part.part_number}
                  {missingBefore > 0 ? <span className="parts-table__note">{tp('multipart.gapBefore', missingBefore)}</span> : null}
                </td>
                <td title={part.size === undefined ? undefined : `${formatNumber(part.size)} B`}>
                  {part.size === undefined ? t('common.none') : formatBytes(part.size)}
                  {odd && part.size !== undefined && typical !== undefined ? (
                    <span className="parts-table__note">{part.size < typical ? t('multipart.sizeSmaller') : t('multipart.sizeLarger')}</span>
                  ) : null}
                </td>
                <td>{part.created ? formatDateTime(new Date(part.created), 'short') : t('common.none')}</td>
                <td>
                  <code>{part.etag ?? ''}</code>
                </td>
              </tr>
            );
          })}
          <SpacerRow height={after} />
        </tbody>
      </table>
    </section>
  );
});

/** The height of the rows not in the DOM, above or below the rendered ones (nothing when there are none). */
function SpacerRow({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" className="parts-table__spacer">
      {/* oxlint-disable-next-line jsx-a11y/control-has-associated-label -- an empty spacer hidden from assistive technology */}
      <td colSpan={4} style={{ height }} />
    </tr>
  );
}

function JumpForm({ onJump }: { onJump: (part: number) => void }) {
  const { t } = useI18n();
  return (
    <NumberForm
      className="jump-form"
      label={t('multipart.jumpLabel')}
      value=""
      min={0}
      max={MAX_PART_NUMBER}
      submitLabel={t('multipart.jump')}
      errorText={t('multipart.jumpError', { max: MAX_PART_NUMBER })}
      parse={(text) => wholeNumberIn(text, 0, MAX_PART_NUMBER)}
      onSubmit={onJump}
    />
  );
}

function parentOf(key: string): string {
  const cut = key.lastIndexOf('/');
  return cut < 0 ? '' : key.slice(0, cut + 1);
}

function MinPartSizeChoice({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="field field--inline">
      <label htmlFor={id}>{t('multipart.minPartSize')}</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        <option value={MIN_PART_SIZE}>{t('multipart.minPartSize.qingstor')}</option>
        <option value={DEMO_MIN_PART_SIZE}>{t('multipart.minPartSize.demo')}</option>
      </select>
    </div>
  );
}

function LimitForm({ limit, onApply }: { limit: number; onApply: (limit: number) => void }) {
  const { t } = useI18n();
  return (
    <NumberForm
      className="inline-form__fields"
      label={t('multipart.limit')}
      value={String(limit)}
      min={1}
      max={MAX_LIST_PARTS_LIMIT}
      submitLabel={t('multipart.applyLimit')}
      errorText={t('multipart.limitError', { max: MAX_LIST_PARTS_LIMIT })}
      parse={(text) => {
        const parsed = partsLimitSchema.safeParse({ limit: text });
        return parsed.success ? parsed.data.limit : null;
      }}
      onSubmit={onApply}
    />
  );
}
