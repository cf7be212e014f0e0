import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useFieldArray, useForm, type UseFieldArrayReturn, type UseFormReturn } from 'react-hook-form';
import type { MetadataEdits } from '../../../api/metadata/edit.ts';
import { metadataKeyBytes } from '../../../api/metadata/rules.ts';
import type { MetadataRule } from '../../../api/metadata/types.ts';
import { CUSTOM_METADATA_PREFIX, STANDARD_METADATA_HEADERS } from '../../../api/protocol/headers.ts';
import { METADATA_KEY_MAX_BYTES } from '../../../api/protocol/limits.ts';
import { EncodingOffer, RemoveRowIcon, ruleMessageKey } from '../../../components/metadata-form/metadata-form.tsx';
import { useI18n } from '../../../i18n/i18n.tsx';
import { bulkEditsFromValues, bulkIssues, bulkSchema, bulkStoredValue, emptyBulkValues, type BulkValues } from './edits-model.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/metadata.ts';

const HEADER_LABELS: Record<(typeof STANDARD_METADATA_HEADERS)[number], string> = {
  'cache-control': 'Cache-Control',
  'content-disposition': 'Content-Disposition',
  'content-encoding': 'Content-Encoding',
  'content-type': 'Content-Type',
  expires: 'Expires',
};

export interface EditsForm {
  form: UseFormReturn<BulkValues>;
  ops: UseFieldArrayReturn<BulkValues, 'custom'>;
  values: BulkValues;
  /** A field's broken rule, once the user typed in it or tried to go on. */
  issue(path: string): MetadataRule | undefined;
  markTyped(path: string): void;
  /** True once any field differs from "keep". */
  touched: boolean;
}

/** The bulk edits' form state: per standard header keep / set / remove, and custom key operations. */
export function useEditsForm(): EditsForm {
  const form = useForm<BulkValues>({ defaultValues: emptyBulkValues(), resolver: zodResolver(bulkSchema), mode: 'onChange' });
  const ops = useFieldArray({ control: form.control, name: 'custom' });
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: live errors are the point
  const values = form.watch();
  const all = new Map(bulkIssues(values).map((issue) => [issue.path, issue.rule] as const));
  const [typed, setTyped] = useState<ReadonlySet<string>>(() => new Set());
  const attempted = form.formState.submitCount > 0;
  return {
    form,
    ops,
    values,
    issue: (path) => (attempted || typed.has(path) ? all.get(path) : undefined),
    markTyped: (path) => {
      if (!typed.has(path)) setTyped((previous) => new Set(previous).add(path));
    },
    touched: values.custom.length > 0 || STANDARD_METADATA_HEADERS.some((name) => values.standard[name].choice !== 'keep'),
  };
}

/** The edits the values ask for, or null when they ask for none. */
export function editsOf(values: BulkValues): MetadataEdits | null {
  const edits = bulkEditsFromValues(values);
  return Object.keys(edits.standard ?? {}).length === 0 && (edits.custom?.length ?? 0) === 0 ? null : edits;
}

export function EditsFields({ edits, disabled }: { edits: EditsForm; disabled: boolean }) {
  const { t } = useI18n();
  const idBase = useId();
  const { form, ops, values } = edits;
  return (
    <>
      <fieldset disabled={disabled}>
        <legend>{t('metadata.standard')}</legend>
        {STANDARD_METADATA_HEADERS.map((name) => {
          const id = `${idBase}-${name}`;
          const rule = edits.issue(`standard.${name}.value`);
          return (
            <div key={name} className="field bulk-field">
              <label htmlFor={`${id}-choice`}>{HEADER_LABELS[name]}</label>
              <select id={`${id}-choice`} {...form.register(`standard.${name}.choice`)}>
                <option value="keep">{t('metadata.bulk.keep')}</option>
                <option value="set">{t('metadata.bulk.set')}</option>
                <option value="remove">{t('metadata.bulk.remove')}</option>
              </select>
              {values.standard[name].choice === 'set' ? (
                <>
                  <label htmlFor={`${id}-value`} className="visually-hidden">
                    {t('metadata.bulk.newValue', { header: HEADER_LABELS[name] })}
                  </label>
                  <input
                    id={`${id}-value`}
                    {...form.register(`standard.${name}.value`, { onChange: () => edits.markTyped(`standard.${name}.value`) })}
                    aria-invalid={rule ? true : undefined}
                    aria-describedby={rule ? `${id}-error` : undefined}
                    spellCheck={false}
                  />
                  {rule ? (
                    <p id={`${id}-error`} className="field-error">
                      {t(ruleMessageKey(rule), { bytes: 0, limit: 0 })}
                    </p>
                  ) : null}
                </>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>{t('metadata.custom')}</legend>
        {ops.fields.length > 0 ? (
          <div className="metadata-fields">
            <table className="meta-table bulk-ops">
              <thead>
                <tr>
                  <th scope="col" className="bulk-ops__op">{t('metadata.bulk.opColumn')}</th>
                  <th scope="col" className="meta-table__key">{t('metadata.form.key')}</th>
                  <th scope="col">{t('metadata.form.value')}</th>
                  <th scope="col" className="meta-table__remove"><span className="visually-hidden">{t('metadata.form.remove')}</span></th>
                </tr>
              </thead>
              <tbody>
                {ops.fields.map((field, index) => (
                  <OperationRow key={field.id} edits={edits} index={index} id={`${idBase}-op-${field.id}`} />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <button type="button" className="button button--small bulk-ops__add" onClick={() => ops.append({ op: 'set', key: '', text: '', encoding: 'percent', autoEncoding: true })}>
          {t('metadata.bulk.addOp')}
        </button>
      </fieldset>
      <p className="field-hint">{t('metadata.bulk.mergeNote')}</p>
    </>
  );
}

function OperationRow({ edits, index, id }: { edits: EditsForm; index: number; id: string }) {
  const { t } = useI18n();
  const { form, ops, values } = edits;
  const op = values.custom[index];
  if (!op) return null;
  const n = index + 1;
  const keyRule = edits.issue(`custom.${index}.key`);
  const textRule = edits.issue(`custom.${index}.text`);
  return (
    <tr className="meta-row bulk-op">
      <td className="bulk-ops__op">
        <select aria-label={t('metadata.bulk.opLabel', { n })} {...form.register(`custom.${index}.op`)}>
          <option value="set">{t('metadata.bulk.opSet')}</option>
          <option value="remove">{t('metadata.bulk.opRemove')}</option>
        </select>
      </td>
      <td className="meta-table__key">
        <div className="meta-key">
          <span className="meta-key__prefix mono" aria-hidden="true">{CUSTOM_METADATA_PREFIX}</span>
          <input
            aria-label={t('metadata.rowKey', { n })}
            className="mono"
            {...form.register(`custom.${index}.key`, { onChange: () => edits.markTyped(`custom.${index}.key`) })}
            aria-invalid={keyRule ? true : undefined}
            aria-describedby={keyRule ? `${id}-ke` : undefined}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        {keyRule ? (
          <p id={`${id}-ke`} className="field-error">
            {t(ruleMessageKey(keyRule), { bytes: metadataKeyBytes(op.key), limit: METADATA_KEY_MAX_BYTES })}
          </p>
        ) : null}
      </td>
      <td>
        {op.op === 'set' ? (
          <>
            <input
              aria-label={t('metadata.rowValue', { n })}
              className="meta-value"
              dir="auto"
              {...form.register(`custom.${index}.text`, { onChange: () => edits.markTyped(`custom.${index}.text`) })}
              aria-invalid={textRule ? true : undefined}
              aria-describedby={`${id}-stored${textRule ? ` ${id}-te` : ''}`}
              spellCheck={false}
              autoComplete="off"
            />
            <EncodingOffer
              id={`${id}-stored`}
              n={n}
              text={op.text}
              encoding={op.encoding}
              auto={op.autoEncoding}
              stored={bulkStoredValue(op)}
              onChoose={(encoding) => {
                form.setValue(`custom.${index}.encoding`, encoding);
                form.setValue(`custom.${index}.autoEncoding`, false, { shouldValidate: true });
              }}
            />
            {textRule ? (
              <p id={`${id}-te`} className="field-error">
                {t(ruleMessageKey(textRule), { bytes: 0, limit: 0 })}
              </p>
            ) : null}
          </>
        ) : (
          <span className="field-hint">{t('metadata.bulk.removedEverywhere')}</span>
        )}
      </td>
      <td className="meta-table__remove">
        <button type="button" className="icon-button" aria-label={t('metadata.removeRow', { n })} title={t('metadata.removeRow', { n })} onClick={() => ops.remove(index)}>
          <RemoveRowIcon />
        </button>
      </td>
    </tr>
  );
}
