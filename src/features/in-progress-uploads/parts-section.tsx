import { z } from 'zod';
import { MAX_LIST_PARTS_LIMIT, MAX_PART_NUMBER, type ObjectPart } from '../../api/multipart/schemas.ts';
import { Loading } from '../../components/spinner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { NumberForm, wholeNumberIn } from './number-form.tsx';
import { PartsTable } from './parts-table.tsx';
import type { PartsPagePosition } from './upload-detail-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

export const partsLimitSchema = z.object({
  limit: z.coerce.number<string>().int().min(1).max(MAX_LIST_PARTS_LIMIT),
});

/**
 * One page of an upload's parts: how many per page, the pager (first, previous, next, go to a part) with
 * where this page sits, and the page's rows, or what an empty page means.
 */
export function PartsSection({ limit, after, parts, loaded, pending, isPlaceholder, position, jumpedTo, onLimit, onFirst, onPrevious, onNext, onJump }: {
  limit: number;
  after: number | null;
  parts: readonly ObjectPart[];
  loaded: boolean;
  pending: boolean;
  isPlaceholder: boolean;
  position: PartsPagePosition;
  jumpedTo: number | null;
  onLimit: (limit: number) => void;
  onFirst: () => void;
  onPrevious: () => void;
  onNext: () => void;
  onJump: (part: number) => void;
}) {
  const { t, tp } = useI18n();
  const { pageIndex, pageCount } = position;
  return (
    <section className="upload-detail__parts" aria-labelledby="parts-title">
      <h3 id="parts-title">{t('multipart.parts')}</h3>
      <LimitForm limit={limit} onApply={onLimit} />
      <nav className="pager" aria-label={t('multipart.partsPages')}>
        <Button size="sm" disabled={after === null} onClick={onFirst}>
          {t('multipart.firstPage')}
        </Button>
        <Button size="sm" disabled={after === null} onClick={onPrevious}>
          {t('multipart.previousPage')}
        </Button>
        <Button size="sm" disabled={!position.hasNext} onClick={onNext}>
          {t('multipart.nextPage')}
        </Button>
        <JumpForm onJump={onJump} />
        <output data-testid="page-status" className="pager__status">
          {loaded && !isPlaceholder
            ? pageIndex !== null && pageCount !== null && pageIndex >= 0
              ? tp('multipart.pageOf', parts.length, { page: pageIndex + 1, pages: pageCount })
              : tp('multipart.pageCount', parts.length)
            : ''}
        </output>
      </nav>
      {pending ? <Loading label={t('app.loading')} /> : null}
      {loaded && parts.length > 0 ? <PartsTable parts={parts} lastPartNumber={position.lastPartNumber} jumpedTo={jumpedTo} /> : null}
      {loaded && parts.length === 0 ? (
        <EmptyState
          title={t('multipart.noParts')}
          body={t(after === null ? 'multipart.noParts.first' : 'multipart.noParts.later')}
          action={after === null ? undefined : <Button onClick={onFirst}>{t('multipart.firstPage')}</Button>}
        />
      ) : null}
    </section>
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
