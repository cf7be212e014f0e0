import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { MetadataRule } from '../../api/metadata/types.ts';
import type { StandardHeader } from '../../api/protocol/headers.ts';
import { formatHttpDate } from '../../api/protocol/http-date.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { Field } from '../ui/field.tsx';
import type { EditorValues } from './form-model.ts';
import { CACHE_CONTROL_PRESETS, COMMON_CONTENT_TYPES, contentDispositionFor } from './standard-values.ts';
import { ExpiresPicker } from './expires-picker.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

/** The five storable standard headers: what each does (description) and the form its value must take (rule), both shown. */
export const STANDARD_FIELDS: ReadonlyArray<{ name: StandardHeader; label: string; hint: MessageKey; rule: MessageKey }> = [
  { name: 'content-type', label: 'Content-Type', hint: 'metadata.hint.contentType', rule: 'metadata.ruleText.contentType' },
  { name: 'cache-control', label: 'Cache-Control', hint: 'metadata.hint.cacheControl', rule: 'metadata.ruleText.cacheControl' },
  { name: 'content-disposition', label: 'Content-Disposition', hint: 'metadata.hint.contentDisposition', rule: 'metadata.ruleText.contentDisposition' },
  { name: 'content-encoding', label: 'Content-Encoding', hint: 'metadata.hint.contentEncoding', rule: 'metadata.ruleText.contentEncoding' },
  { name: 'expires', label: 'Expires', hint: 'metadata.hint.expires', rule: 'metadata.ruleText.expires' },
];

const CONTENT_ENCODINGS: readonly string[] = ['gzip', 'br', 'deflate', 'identity'];

/** What a standard header's field cannot show, and why. */
export interface UnreadableHeader {
  header: StandardHeader;
  why: 'cors' | 'refused';
}

/**
 * Esc inside an open popover (Paste lines, Build…) closes the popover and returns focus to its button
 * instead of closing the whole dialog. A native listener: the popover is a <details>, not a control.
 */
export function useEscapeCloses(): RefObject<HTMLDetailsElement | null> {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return undefined;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || !details.open) return;
      event.preventDefault();
      event.stopPropagation();
      details.open = false;
      details.querySelector('summary')?.focus();
    };
    details.addEventListener('keydown', onKeyDown);
    return () => details.removeEventListener('keydown', onKeyDown);
  }, []);
  return ref;
}

/**
 * One standard header: its name, the input (with a preset list, a builder or a date picker beside it), what
 * the header does and the rule its value follows, both visible, and the rule's error once it is broken.
 */
export function StandardField({ form, name, label, hint, ruleText, rule, ruleMessage, unreadable, onTyped }: {
  form: UseFormReturn<EditorValues>;
  name: StandardHeader;
  label: string;
  hint: MessageKey;
  ruleText: MessageKey;
  rule: MetadataRule | undefined;
  ruleMessage: (rule: MetadataRule) => string;
  unreadable: UnreadableHeader['why'] | undefined;
  onTyped: () => void;
}) {
  const { t } = useI18n();
  const set = (value: string) => {
    form.setValue(`standard.${name}`, value, { shouldDirty: true, shouldValidate: true });
    onTyped();
  };
  const aside =
    name === 'cache-control' ? (
      <select
        aria-label={t('metadata.form.cachePresets')}
        value=""
        onChange={(e) => {
          if (e.target.value !== '') set(e.target.value);
        }}
      >
        <option value="">{t('metadata.form.preset')}</option>
        {CACHE_CONTROL_PRESETS.map((preset) => <option key={preset} value={preset}>{preset}</option>)}
      </select>
    ) : name === 'content-disposition' ? (
      <DispositionBuilder onBuild={set} />
    ) : name === 'expires' ? (
      <ExpiresPicker onPick={(date) => set(formatHttpDate(date))} />
    ) : null;
  return (
    <Field
      layout="inline"
      label={label}
      labelClassName="mono"
      description={t(hint)}
      constraint={t(ruleText)}
      error={rule ? ruleMessage(rule) : undefined}
      aside={aside}
      testId={`std-${name}`}
      notice={unreadable ? <strong>{t(unreadable === 'refused' ? 'details.refusedValue' : 'metadata.visibility.fieldHidden')}</strong> : undefined}
    >
      {(control) => {
        const list = name === 'content-type' ? `${control.id}-types` : name === 'content-encoding' ? `${control.id}-encodings` : undefined;
        return (
          <>
            <input {...control} {...form.register(`standard.${name}`, { onChange: onTyped })} list={list} spellCheck={false} autoComplete="off" />
            {name === 'content-type' ? (
              <datalist id={list}>
                {COMMON_CONTENT_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
              </datalist>
            ) : null}
            {name === 'content-encoding' ? (
              <datalist id={list}>
                {CONTENT_ENCODINGS.map((value) => <option key={value} value={value}>{value}</option>)}
              </datalist>
            ) : null}
          </>
        );
      }}
    </Field>
  );
}

/** Content-Disposition from a type and a file name (RFC 6266, `filename*` per RFC 5987 for non-ASCII). */
function DispositionBuilder({ onBuild }: { onBuild: (value: string) => void }) {
  const { t } = useI18n();
  const popover = useEscapeCloses();
  const [filename, setFilename] = useState('');
  const [type, setType] = useState<'attachment' | 'inline'>('attachment');
  const id = useId();
  return (
    <details className="meta-builder" ref={popover}>
      <summary className="button button--small">{t('metadata.form.build')}</summary>
      <fieldset className="meta-builder__box">
        <legend className="visually-hidden">{t('metadata.filenameHelper')}</legend>
        <label htmlFor={`${id}-dtype`}>{t('metadata.dispositionType')}</label>
        <select id={`${id}-dtype`} value={type} onChange={(e) => setType(e.target.value === 'inline' ? 'inline' : 'attachment')}>
          <option value="attachment">attachment</option>
          <option value="inline">inline</option>
        </select>
        <label htmlFor={`${id}-filename`}>{t('metadata.filename')}</label>
        <input id={`${id}-filename`} value={filename} onChange={(e) => setFilename(e.target.value)} dir="auto" />
        <button type="button" className="button button--small" disabled={filename === ''} onClick={(e) => {
          onBuild(contentDispositionFor(filename, type));
          e.currentTarget.closest('details')?.removeAttribute('open');
        }}>
          {t('metadata.useFilename')}
        </button>
      </fieldset>
    </details>
  );
}
