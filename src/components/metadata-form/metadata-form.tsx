import { useEffect, useId, useRef, useState, type ClipboardEvent } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { metadataEntryBytes } from '../../api/metadata/rules.ts';
import type { MetadataRule } from '../../api/metadata/types.ts';
import { CUSTOM_METADATA_PREFIX } from '../../api/protocol/headers.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import {
  METADATA_KEY_MAX_BYTES,
  METADATA_TOTAL_MAX_BYTES,
  ROW_ENCODINGS,
  byteCounts,
  editorIssues,
  effectiveEncoding,
  issuesByPath,
  looksLikeMetadataLines,
  needsEncoding,
  newRow,
  parseMetadataLines,
  rowsWithPasted,
  storedValue,
  type EditorValues,
  type RowEncoding,
} from './form-model.ts';
import { STANDARD_FIELDS, StandardField, useEscapeCloses, type UnreadableHeader } from './standard-field.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './metadata-form.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

const KEY_COUNTER_FROM = METADATA_KEY_MAX_BYTES / 2;

const ENCODING_LABELS: Record<RowEncoding, MessageKey> = {
  percent: 'metadata.encoding.percent',
  'rfc2047-b': 'metadata.encoding.rfc2047b',
  'rfc2047-q': 'metadata.encoding.rfc2047q',
  plain: 'metadata.encoding.plain',
};

const RULE_MESSAGES: Record<MetadataRule, MessageKey> = {
  key_empty: 'metadata.rule.key_empty',
  key_charset: 'metadata.rule.key_charset',
  key_too_long: 'metadata.rule.key_too_long',
  value_not_printable: 'metadata.rule.value_not_printable',
  total_too_large: 'metadata.rule.total_too_large',
  key_duplicate: 'metadata.rule.key_duplicate',
  value_surrounding_whitespace: 'metadata.rule.value_surrounding_whitespace',
  standard_not_printable: 'metadata.rule.standard_not_printable',
  expires_not_http_date: 'metadata.rule.expires_not_http_date',
  content_encoding_syntax: 'metadata.rule.content_encoding_syntax',
  cache_control_syntax: 'metadata.rule.cache_control_syntax',
  content_disposition_syntax: 'metadata.rule.content_disposition_syntax',
  content_type_syntax: 'metadata.rule.content_type_syntax',
};

export function ruleMessageKey(rule: MetadataRule): MessageKey {
  return RULE_MESSAGES[rule];
}

function isEncoding(value: string): value is RowEncoding {
  return (ROW_ENCODINGS as readonly string[]).includes(value);
}

function FieldError({ id, rule, params }: { id: string; rule: MetadataRule | undefined; params?: Record<string, number> }) {
  const { t } = useI18n();
  if (!rule) return null;
  return (
    <p id={id} className="field-error" data-rule={rule}>
      {t(RULE_MESSAGES[rule], params)}
    </p>
  );
}

/**
 * The encoding offer of one value, the same wherever a metadata value is typed (editor, bulk edit, copy
 * with REPLACE, uploads): nothing while the text can be stored as typed; otherwise the encoding select
 * (preset to what reads best until the user picks one) with "Stored as" and "Reads as" beside it.
 */
export function EncodingOffer({ id, n, text, encoding, auto, stored, onChoose }: {
  id: string;
  n: number;
  text: string;
  encoding: RowEncoding;
  auto: boolean;
  /** What will be stored (for a loaded, untouched value: exactly what is stored now). */
  stored: string;
  onChoose: (encoding: RowEncoding) => void;
}) {
  const { t } = useI18n();
  const chosen = effectiveEncoding(text, encoding, auto);
  // An explicit "as typed" stays visible so the user can see why it is refused and pick another.
  if (!needsEncoding(text) && stored === text) return null;
  const decoded = decodeMetadataValue(stored);
  return (
    <div className="meta-offer" id={id}>
      <select
        aria-label={t('metadata.rowEncoding', { n })}
        className="meta-offer__select"
        value={chosen}
        onChange={(e) => {
          if (isEncoding(e.target.value)) onChoose(e.target.value);
        }}
      >
        {ROW_ENCODINGS.map((value) => (
          <option key={value} value={value}>
            {t(ENCODING_LABELS[value])}
          </option>
        ))}
      </select>
      <span className="meta-offer__stored">
        {t('metadata.form.storedAs')} <code data-testid="stored-value">{visibleText(stored)}</code>
      </span>
      {decoded.encoding !== 'plain' ? (
        <span className="meta-offer__reads">
          {t('metadata.form.readsAs')} <span dir="auto" data-testid="decoded-value">{visibleText(decoded.text)}</span>
        </span>
      ) : null}
    </div>
  );
}

/**
 * The metadata form shared by the editor, copy with REPLACE and the upload drawer: the five storable
 * standard headers as a compact group with helpers (ref §5.1), and the custom keys as a table of rows
 * (ref §6) with live byte counts, the encoding offer where a value needs one, a byte budget, and pasting
 * of many `key: value` lines at once. Rule errors show under a field once the user typed in it or tried
 * to submit. The caller owns the form (useForm) and its buttons.
 */
export function MetadataFields({ form, unreadable = [] }: {
  form: UseFormReturn<EditorValues>;
  /** Standard headers the browser could not read, and why: their empty field says so instead of looking unset. */
  unreadable?: readonly UnreadableHeader[];
}) {
  const { t, tp } = useI18n();
  const idBase = useId();
  const { register, control, setValue, getValues } = form;
  const rows = useFieldArray({ control, name: 'rows' });
  // watch() re-renders on every keystroke: counters and rule errors are live.
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: live errors are the point
  const values = form.watch();
  const issues = issuesByPath(editorIssues(values));
  const counts = byteCounts(values.rows);
  const totalRule = issues.get('rows');
  const [typed, setTyped] = useState<ReadonlySet<string>>(() => new Set());
  const [pasteNote, setPasteNote] = useState<{ added: number; skipped: number } | null>(null);
  // Errors of untouched fields show once the user tried to submit: this form's own handleSubmit (the
  // editor), or the form around it (copy, upload), whatever that form's own handler does with the attempt.
  const rootRef = useRef<HTMLDivElement>(null);
  const [attempted, setAttempted] = useState(false);
  useEffect(() => {
    const outer = rootRef.current?.closest('form');
    if (!outer) return undefined;
    const onSubmit = () => setAttempted(true);
    outer.addEventListener('submit', onSubmit);
    return () => outer.removeEventListener('submit', onSubmit);
  }, []);
  const submitted = form.formState.submitCount > 0 || attempted;
  const markTyped = (name: string) => {
    if (!typed.has(name)) setTyped((previous) => new Set(previous).add(name));
  };
  const shown = (name: string, rule: MetadataRule | undefined) => (rule && (submitted || typed.has(name)) ? rule : undefined);

  const paste = (text: string, startIndex: number | null) => {
    const { entries, skipped } = parseMetadataLines(text);
    const before = getValues('rows');
    const next = rowsWithPasted(before, entries, startIndex);
    rows.replace(next);
    setTyped((previous) => new Set(previous).add('pasted'));
    setPasteNote({ added: entries.length, skipped });
    void form.trigger();
  };
  const onKeyPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text/plain');
    if (!looksLikeMetadataLines(text)) return;
    event.preventDefault();
    paste(text, index);
  };

  return (
    <div className="metadata-fields" ref={rootRef}>
      <fieldset className="meta-standard">
        <legend>{t('metadata.standard')}</legend>
        <p className="meta-fieldset__hint">{t('metadata.standardHint')}</p>
        {STANDARD_FIELDS.map(({ name, label, hint, rule }) => (
          <StandardField
            key={name}
            form={form}
            name={name}
            label={label}
            hint={hint}
            ruleText={rule}
            rule={shown(`standard.${name}`, issues.get(`standard.${name}`))}
            ruleMessage={(broken) => t(RULE_MESSAGES[broken])}
            unreadable={unreadable.find((u) => u.header === name)?.why}
            onTyped={() => markTyped(`standard.${name}`)}
          />
        ))}
      </fieldset>

      <fieldset className="meta-custom">
        <legend>{t('metadata.custom')}</legend>
        <p className="meta-fieldset__hint">{t('metadata.customDescription')}</p>
        <p className="meta-fieldset__hint meta-fieldset__rule" id={`${idBase}-custom-hint`}>
          {t('metadata.customHint')}
        </p>
        {rows.fields.length === 0 ? <p className="meta-empty">{t('metadata.noCustom')}</p> : (
          <table className="meta-table" aria-describedby={`${idBase}-custom-hint`}>
            <thead>
              <tr>
                <th scope="col" className="meta-table__key">{t('metadata.form.key')}</th>
                <th scope="col">{t('metadata.form.value')}</th>
                <th scope="col" className="meta-table__bytes">{t('metadata.form.bytes')}</th>
                <th scope="col" className="meta-table__remove"><span className="visually-hidden">{t('metadata.form.remove')}</span></th>
              </tr>
            </thead>
            <tbody>
              {rows.fields.map((field, index) => {
                const row = values.rows[index];
                if (!row) return null;
                const n = index + 1;
                const id = `${idBase}-row-${field.id}`;
                const pasted = typed.has('pasted');
                const keyRule = shown(pasted ? 'pasted' : `${field.id}.key`, issues.get(`rows.${index}.key`));
                const textRule = shown(pasted ? 'pasted' : `${field.id}.text`, issues.get(`rows.${index}.text`));
                const keyBytes = counts.keys[index] ?? 0;
                const stored = storedValue(row);
                const keyDescribedBy = [keyBytes > KEY_COUNTER_FROM ? `${id}-kc` : '', keyRule ? `${id}-ke` : ''].filter(Boolean).join(' ') || undefined;
                const textDescribedBy = [`${id}-offer`, textRule ? `${id}-te` : ''].filter(Boolean).join(' ');
                return (
                  <tr key={field.id} className="meta-row" data-testid="metadata-row">
                    <td className="meta-table__key">
                      <div className="meta-key">
                        <span className="meta-key__prefix mono" aria-hidden="true">{CUSTOM_METADATA_PREFIX}</span>
                        <input
                          {...register(`rows.${index}.key`, { onChange: () => markTyped(`${field.id}.key`) })}
                          aria-label={t('metadata.rowKey', { n })}
                          className="mono"
                          aria-invalid={keyRule ? true : undefined}
                          aria-describedby={keyDescribedBy}
                          spellCheck={false}
                          autoComplete="off"
                          onPaste={onKeyPaste(index)}
                        />
                      </div>
                      {/* The key's own limit is shown once it gets near (a typical key is a few bytes). */}
                      {keyBytes > KEY_COUNTER_FROM ? (
                        <output id={`${id}-kc`} className={`counter${keyBytes > METADATA_KEY_MAX_BYTES ? ' counter--over' : ''}`}>
                          {t('metadata.keyBytes', { bytes: keyBytes, limit: METADATA_KEY_MAX_BYTES })}
                        </output>
                      ) : null}
                      <FieldError id={`${id}-ke`} rule={keyRule} params={{ bytes: keyBytes, limit: METADATA_KEY_MAX_BYTES }} />
                    </td>
                    <td>
                      <input
                        {...register(`rows.${index}.text`, { onChange: () => markTyped(`${field.id}.text`) })}
                        aria-label={t('metadata.rowValue', { n })}
                        className="meta-value"
                        dir="auto"
                        aria-invalid={textRule ? true : undefined}
                        aria-describedby={textDescribedBy}
                        spellCheck={false}
                        autoComplete="off"
                      />
                      <EncodingOffer
                        id={`${id}-offer`}
                        n={n}
                        text={row.text}
                        encoding={row.encoding}
                        auto={row.autoEncoding}
                        stored={stored}
                        onChoose={(encoding) => {
                          setValue(`rows.${index}.encoding`, encoding, { shouldDirty: true });
                          setValue(`rows.${index}.autoEncoding`, false, { shouldDirty: true, shouldValidate: true });
                          markTyped(`${field.id}.text`);
                        }}
                      />
                      <FieldError id={`${id}-te`} rule={textRule} />
                    </td>
                    <td className="meta-table__bytes">
                      <span data-testid="row-bytes" className={keyBytes > METADATA_KEY_MAX_BYTES ? 'counter--over' : undefined}>
                        {metadataEntryBytes(row.key, stored).toLocaleString('en-US')}
                      </span>
                    </td>
                    <td className="meta-table__remove">
                      <button
                        type="button"
                        className="icon-button"
                        data-remove-row=""
                        aria-label={t('metadata.removeRow', { n })}
                        title={t('metadata.removeRow', { n })}
                        onClick={() => {
                          rows.remove(index);
                          // Keyboard users stay in the table: focus moves to the next row's remove button (or "Add key").
                          requestAnimationFrame(() => {
                            const buttons = rootRef.current?.querySelectorAll<HTMLButtonElement>('[data-remove-row]') ?? [];
                            const next = buttons[Math.min(index, buttons.length - 1)] ?? rootRef.current?.querySelector<HTMLButtonElement>('[data-add-row]');
                            next?.focus();
                          });
                        }}
                      >
                        <RemoveRowIcon />
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <div className="meta-custom__actions">
          <button type="button" className="button button--small" data-add-row="" onClick={() => rows.append(newRow(), { shouldFocus: true })}>
            {t('metadata.addRow')}
          </button>
          <PasteLines onPaste={(text) => paste(text, null)} />
          <ByteBudget total={counts.total} ruleId={totalRule && (submitted || typed.size > 0) ? `${idBase}-total-error` : undefined} />
        </div>
        {pasteNote ? (
          <output className="field-hint meta-paste-note">
            {tp('metadata.form.pasted', pasteNote.added)}
            {pasteNote.skipped > 0 ? ` ${tp('metadata.form.pasteSkipped', pasteNote.skipped)}` : ''}
          </output>
        ) : null}
        <FieldError id={`${idBase}-total-error`} rule={totalRule && (submitted || typed.size > 0) ? totalRule : undefined} params={{ bytes: counts.total, limit: METADATA_TOTAL_MAX_BYTES }} />
      </fieldset>
    </div>
  );
}

/** The live 2 KB budget of keys + stored values. */
function ByteBudget({ total, ruleId }: { total: number; ruleId: string | undefined }) {
  const { t } = useI18n();
  const over = total > METADATA_TOTAL_MAX_BYTES;
  return (
    <span className={`meta-budget${over ? ' counter--over' : ''}`}>
      <meter min={0} max={METADATA_TOTAL_MAX_BYTES} low={METADATA_TOTAL_MAX_BYTES * 0.75} high={METADATA_TOTAL_MAX_BYTES * 0.9} optimum={0} value={Math.min(total, METADATA_TOTAL_MAX_BYTES)} aria-label={t('metadata.form.budget')} />
      <output data-testid="total-bytes" aria-describedby={ruleId}>
        {t('metadata.totalBytes', { bytes: total, limit: METADATA_TOTAL_MAX_BYTES })}
      </output>
    </span>
  );
}

/** "Paste lines": a box for many `key: value` lines at once. */
function PasteLines({ onPaste }: { onPaste: (text: string) => void }) {
  const { t } = useI18n();
  const popover = useEscapeCloses();
  const id = useId();
  const [text, setText] = useState('');
  return (
    <details className="meta-paste" ref={popover}>
      <summary className="button button--small">{t('metadata.form.pasteLines')}</summary>
      <div className="meta-paste__box">
        <label htmlFor={id}>{t('metadata.form.pasteLabel')}</label>
        <textarea id={id} rows={4} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} placeholder={'author: Alice\nproject: 项目'} />
        <button
          type="button"
          className="button button--small"
          disabled={text.trim() === ''}
          onClick={(e) => {
            onPaste(text);
            setText('');
            e.currentTarget.closest('details')?.removeAttribute('open');
          }}
        >
          {t('metadata.form.addLines')}
        </button>
      </div>
    </details>
  );
}

/** The cross on a row's remove button (this form's and bulk edit's). */
export function RemoveRowIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
      <path d="M3 3l8 8M11 3l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
