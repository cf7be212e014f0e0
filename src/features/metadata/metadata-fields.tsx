import { useId, useState } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { CUSTOM_METADATA_PREFIX, formatHttpDate, type MetadataRule, type StandardHeader } from '../../api/metadata/model.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import {
  METADATA_KEY_MAX_BYTES,
  METADATA_TOTAL_MAX_BYTES,
  ROW_ENCODINGS,
  byteCounts,
  contentDispositionFor,
  editorIssues,
  httpDateFromLocalInput,
  issuesByPath,
  newRow,
  storedValue,
  type EditorValues,
  type RowEncoding,
} from './editor-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

const STANDARD_FIELDS: ReadonlyArray<{ name: StandardHeader; label: string; hint: MessageKey }> = [
  { name: 'content-type', label: 'Content-Type', hint: 'metadata.hint.contentType' },
  { name: 'cache-control', label: 'Cache-Control', hint: 'metadata.hint.cacheControl' },
  { name: 'content-disposition', label: 'Content-Disposition', hint: 'metadata.hint.contentDisposition' },
  { name: 'content-encoding', label: 'Content-Encoding', hint: 'metadata.hint.contentEncoding' },
  { name: 'expires', label: 'Expires', hint: 'metadata.hint.expires' },
];

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
 * The editable fields of one object's metadata: the five storable standard headers (ref §5.1) and the
 * custom rows (ref §6), with live byte counters and rule errors at each field. The caller owns the form
 * (useForm) and its buttons.
 */
export function MetadataFields({ form, unreadable = [] }: {
  form: UseFormReturn<EditorValues>;
  /** Standard headers the browser could not read, and why: their empty field says so instead of looking unset. */
  unreadable?: ReadonlyArray<{ header: StandardHeader; why: 'cors' | 'refused' }>;
}) {
  const { t } = useI18n();
  const idBase = useId();
  const { register, control, setValue } = form;
  const rows = useFieldArray({ control, name: 'rows' });
  // watch() re-renders on every keystroke: counters and rule errors are live.
  const values = form.watch();
  const issues = issuesByPath(editorIssues(values));
  const counts = byteCounts(values.rows);
  const totalRule = issues.get('rows');
  const [filename, setFilename] = useState('');
  const [dispositionType, setDispositionType] = useState<'attachment' | 'inline'>('attachment');

  return (
    <div className="metadata-fields">
      <fieldset>
        <legend>{t('metadata.standard')}</legend>
        {STANDARD_FIELDS.map(({ name, label, hint }) => {
          const id = `${idBase}-${name}`;
          const rule = issues.get(`standard.${name}`);
          return (
            <div key={name} className="field">
              <label htmlFor={id}>{label}</label>
              <input
                id={id}
                {...register(`standard.${name}`)}
                aria-invalid={rule ? true : undefined}
                aria-describedby={`${id}-hint${rule ? ` ${id}-error` : ''}`}
                spellCheck={false}
                autoComplete="off"
              />
              <p id={`${id}-hint`} className="field-hint">
                {unreadable.some((u) => u.header === name) ? (
                  <strong className="hidden-value">
                    {t(unreadable.find((u) => u.header === name)?.why === 'refused' ? 'details.refusedValue' : 'metadata.visibility.fieldHidden')}{' '}
                  </strong>
                ) : null}
                {t(hint)}
              </p>
              <FieldError id={`${id}-error`} rule={rule} />
              {name === 'content-disposition' ? (
                <fieldset className="field-helper">
                  <legend>{t('metadata.filenameHelper')}</legend>
                  <label htmlFor={`${id}-filename`}>{t('metadata.filename')}</label>
                  <input id={`${id}-filename`} value={filename} onChange={(e) => setFilename(e.target.value)} dir="auto" />
                  <label htmlFor={`${id}-dtype`}>{t('metadata.dispositionType')}</label>
                  <select
                    id={`${id}-dtype`}
                    value={dispositionType}
                    onChange={(e) => setDispositionType(e.target.value === 'inline' ? 'inline' : 'attachment')}
                  >
                    <option value="attachment">attachment</option>
                    <option value="inline">inline</option>
                  </select>
                  <button
                    type="button"
                    className="button button--small"
                    disabled={filename === ''}
                    onClick={() =>
                      setValue('standard.content-disposition', contentDispositionFor(filename, dispositionType), { shouldDirty: true, shouldValidate: true })
                    }
                  >
                    {t('metadata.useFilename')}
                  </button>
                </fieldset>
              ) : null}
              {name === 'expires' ? (
                <div className="field-helper">
                  <label htmlFor={`${id}-picker`}>{t('metadata.pickExpires')}</label>
                  <input
                    id={`${id}-picker`}
                    type="datetime-local"
                    step={1}
                    onChange={(e) => {
                      const date = httpDateFromLocalInput(e.target.value);
                      if (date) setValue('standard.expires', formatHttpDate(date), { shouldDirty: true, shouldValidate: true });
                    }}
                  />
                </div>
              ) : null}
            </div>
          );
        })}
      </fieldset>

      <fieldset>
        <legend>{t('metadata.custom')}</legend>
        <p className="field-hint">{t('metadata.customHint')}</p>
        {rows.fields.length === 0 ? <p>{t('metadata.noCustom')}</p> : null}
        <ol className="metadata-rows">
          {rows.fields.map((field, index) => {
            const row = values.rows[index];
            if (!row) return null;
            const n = index + 1;
            const id = `${idBase}-row-${field.id}`;
            const keyRule = issues.get(`rows.${index}.key`);
            const textRule = issues.get(`rows.${index}.text`);
            const keyBytes = counts.keys[index] ?? 0;
            const stored = storedValue(row);
            const decoded = decodeMetadataValue(stored);
            return (
              <li key={field.id} className="metadata-row" data-testid="metadata-row">
                <div className="field">
                  <label htmlFor={`${id}-key`}>{t('metadata.rowKey', { n })}</label>
                  <span className="field-prefix mono">{CUSTOM_METADATA_PREFIX}</span>
                  <input
                    id={`${id}-key`}
                    {...register(`rows.${index}.key`)}
                    className="mono"
                    aria-invalid={keyRule ? true : undefined}
                    aria-describedby={`${id}-kc${keyRule ? ` ${id}-ke` : ''}`}
                    spellCheck={false}
                    autoComplete="off"
                  />
                  <output id={`${id}-kc`} className={`counter${keyBytes > METADATA_KEY_MAX_BYTES ? ' counter--over' : ''}`}>
                    {t('metadata.keyBytes', { bytes: keyBytes, limit: METADATA_KEY_MAX_BYTES })}
                  </output>
                  <FieldError id={`${id}-ke`} rule={keyRule} params={{ bytes: keyBytes, limit: METADATA_KEY_MAX_BYTES }} />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-text`}>{t('metadata.rowValue', { n })}</label>
                  <input
                    id={`${id}-text`}
                    {...register(`rows.${index}.text`)}
                    dir="auto"
                    aria-invalid={textRule ? true : undefined}
                    aria-describedby={`${id}-stored${textRule ? ` ${id}-te` : ''}`}
                    spellCheck={false}
                    autoComplete="off"
                  />
                  <label htmlFor={`${id}-enc`}>{t('metadata.rowEncoding', { n })}</label>
                  <select
                    id={`${id}-enc`}
                    value={row.encoding}
                    onChange={(e) => {
                      if (isEncoding(e.target.value)) setValue(`rows.${index}.encoding`, e.target.value, { shouldDirty: true, shouldValidate: true });
                    }}
                  >
                    {ROW_ENCODINGS.map((encoding) => (
                      <option key={encoding} value={encoding}>
                        {t(ENCODING_LABELS[encoding])}
                      </option>
                    ))}
                  </select>
                  <p id={`${id}-stored`} className="metadata-row__stored">
                    {t('metadata.storedAs')} <code data-testid="stored-value">{visibleText(stored)}</code>
                    {decoded.encoding !== 'plain' ? (
                      <>
                        {' '}
                        {t('metadata.readsAs')} <span dir="auto" data-testid="decoded-value">{visibleText(decoded.text)}</span>
                      </>
                    ) : null}
                  </p>
                  <FieldError id={`${id}-te`} rule={textRule} />
                </div>
                <button type="button" className="button button--small" onClick={() => rows.remove(index)}>
                  {t('metadata.removeRow', { n })}
                </button>
              </li>
            );
          })}
        </ol>
        <button type="button" className="button" onClick={() => rows.append(newRow())}>
          {t('metadata.addRow')}
        </button>
        <p className={`counter${counts.total > METADATA_TOTAL_MAX_BYTES ? ' counter--over' : ''}`}>
          <output data-testid="total-bytes" aria-describedby={totalRule ? `${idBase}-total-error` : undefined}>
            {t('metadata.totalBytes', { bytes: counts.total, limit: METADATA_TOTAL_MAX_BYTES })}
          </output>
        </p>
        <FieldError id={`${idBase}-total-error`} rule={totalRule} params={{ bytes: counts.total, limit: METADATA_TOTAL_MAX_BYTES }} />
      </fieldset>
    </div>
  );
}
