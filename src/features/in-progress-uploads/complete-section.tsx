import { useId, useState, type ReactNode } from 'react';
import { MAX_PART_NUMBER } from '../../api/multipart/schemas.ts';
import { DEMO_MIN_PART_SIZE } from '../../api/protocol/demo.ts';
import { MIN_PART_SIZE } from '../../api/protocol/limits.ts';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import { formatBytes } from '../../lib/format.ts';
import { completeVerdict, formatRanges, parsePartSelection, presentRanges, selectParts, type PartScan } from './part-scan.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/multipart.ts';

/**
 * What can be done with the upload: Complete with every uploaded part or with the parts listed ("1-100,
 * 150"), refused ahead when a part other than the last is under the smallest size allowed; Abort (asks
 * first, in the caller's dialog); and, when the app offers it, resuming from the file.
 */
export function CompleteSection({ scan, demo, busy, error, onComplete, onAbort, resume }: {
  scan: PartScan | undefined;
  demo: boolean;
  busy: boolean;
  error: ReactNode;
  onComplete: (parts: PartScan) => void;
  onAbort: () => void;
  resume: ReactNode;
}) {
  const { t, tp, formatNumber } = useI18n();
  const [choice, setChoice] = useState<'all' | 'some'>('all');
  const selectionId = useId();
  const [selectionText, setSelectionText] = useState('');
  const [minPartSize, setMinPartSize] = useState(demo ? DEMO_MIN_PART_SIZE : MIN_PART_SIZE);

  const selection = choice === 'some' ? parsePartSelection(selectionText, MAX_PART_NUMBER) : null;
  const picked = scan && selection?.ok ? selectParts(scan, selection.ranges) : null;
  const chosen = choice === 'all' ? scan : picked?.selected;
  const verdict = chosen ? completeVerdict(chosen, minPartSize) : null;

  return (
    <section className="upload-detail__actions" aria-labelledby="actions-title">
      <h3 id="actions-title">{t('multipart.actions')}</h3>
      {demo ? <MinPartSizeChoice value={minPartSize} onChange={setMinPartSize} /> : null}
      {verdict && !verdict.ok ? (
        <p className="notice notice--warn" data-testid="complete-verdict">
          {verdict.reason === 'empty'
            ? t('multipart.cannotComplete.empty')
            : t('multipart.cannotComplete.small', { parts: formatRanges(verdict.parts, formatNumber, 20).text, min: formatBytes(minPartSize) })}
        </p>
      ) : null}
      <p className="field__description">{t('multipart.completeRule', { min: formatBytes(minPartSize) })}</p>
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
            <label className="field__label" htmlFor={`${selectionId}-parts`}>
              {t('multipart.completeSomeLabel')}
            </label>
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
            <p id={`${selectionId}-parts-note`} className={selection && !selection.ok && selectionText.trim() !== '' ? 'field__error' : 'field__constraint'} data-testid="complete-selection">
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
      <ActionRow align="start">
        <Button
          variant="primary"
          disabled={!verdict?.ok || busy}
          onClick={() => {
            if (chosen) onComplete(chosen);
          }}
        >
          {busy ? t('multipart.completing') : tp('multipart.complete', chosen?.numbers.length ?? 0)}
        </Button>
        <Button onClick={onAbort}>{t('multipart.abort')}</Button>
      </ActionRow>
      {error}
      {resume}
    </section>
  );
}

function MinPartSizeChoice({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const { t } = useI18n();
  return (
    <Field label={t('multipart.minPartSize')} description={t('multipart.minPartSize.description')}>
      {(control) => (
        <select {...control} value={value} onChange={(e) => onChange(Number(e.target.value))}>
          <option value={MIN_PART_SIZE}>{t('multipart.minPartSize.qingstor')}</option>
          <option value={DEMO_MIN_PART_SIZE}>{t('multipart.minPartSize.demo')}</option>
        </select>
      )}
    </Field>
  );
}
