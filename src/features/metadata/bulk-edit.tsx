import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { connectionId } from '../../api/connection.ts';
import { MetadataEditError, type MetadataEdits } from '../../api/metadata/edit.ts';
import { CUSTOM_METADATA_PREFIX, METADATA_KEY_MAX_BYTES, STANDARD_METADATA_HEADERS, metadataKeyBytes } from '../../api/metadata/model.ts';
import { invalidateObjectWrites } from '../../api/objects/queries.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { BulkConflictError, runBulkEdit, runBulkUndo, type BulkItemState, type UndoTarget } from './bulk.ts';
import { lastSaveId, recordSave } from './last-save.ts';
import { bulkEditsFromValues, bulkIssues, bulkSchema, bulkStoredValue, emptyBulkValues, type BulkValues } from './bulk-model.ts';
import { EncodingOffer, ruleMessageKey } from '../../components/metadata-form/metadata-form.tsx';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { completenessBlock, SaveBlockedError } from './save.ts';
import { blockMessageKey, SaveSafetyNotice } from './visibility-notice.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './metadata.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

const HEADER_LABELS: Record<(typeof STANDARD_METADATA_HEADERS)[number], string> = {
  'cache-control': 'Cache-Control',
  'content-disposition': 'Content-Disposition',
  'content-encoding': 'Content-Encoding',
  'content-type': 'Content-Type',
  expires: 'Expires',
};


/** "Edit metadata of N objects" for a selection; the app places it in the selection's action bar. */
export function BulkEditButton({ zone, bucket, keys }: { zone: string; bucket: string; keys: readonly string[] }) {
  const { tp } = useI18n();
  const [open, setOpen] = useState(false);
  // The selection is frozen when the dialog opens: the run and its retries cover exactly these objects.
  const [frozen, setFrozen] = useState<readonly string[]>([]);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={keys.length === 0}
        onClick={() => {
          setFrozen([...keys]);
          setOpen(true);
        }}
      >
        {tp('metadata.bulk.open', keys.length)}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={tp('metadata.bulk.title', frozen.length)}>
        <BulkEditor zone={zone} bucket={bucket} keys={frozen} />
      </Dialog>
    </>
  );
}

function BulkEditor({ zone, bucket, keys }: { zone: string; bucket: string; keys: readonly string[] }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const idBase = useId();
  const form = useForm<BulkValues>({ defaultValues: emptyBulkValues(), resolver: zodResolver(bulkSchema), mode: 'onChange' });
  const ops = useFieldArray({ control: form.control, name: 'custom' });
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: live errors are the point
  const values = form.watch();
  const allIssues = new Map(bulkIssues(values).map((issue) => [issue.path, issue.rule] as const));
  // As in the editor: a field's error shows once the user typed in it or tried to apply.
  const [typed, setTyped] = useState<ReadonlySet<string>>(() => new Set());
  const markTyped = (path: string) => {
    if (!typed.has(path)) setTyped((previous) => new Set(previous).add(path));
  };
  const attempted = form.formState.submitCount > 0;
  const issues = { get: (path: string) => (attempted || typed.has(path) ? allIssues.get(path) : undefined) };
  const [states, setStates] = useState<ReadonlyMap<string, BulkItemState>>(new Map());
  const [running, setRunning] = useState(false);
  const [noEdits, setNoEdits] = useState(false);
  const editsRef = useRef<MetadataEdits | null>(null);
  const visibility = useHeaderVisibility(zone, bucket);
  // Bulk edit covers objects the user has not looked at one by one: hidden headers always block it.
  const block = completenessBlock(visibility);

  const recordDone = (key: string, state: BulkItemState) => {
    // Each object's before-image becomes its "Undo last save" (kept in the tab, across reloads).
    if (state.status === 'done') recordSave(lastSaveId(connectionId(client.connection), zone, bucket, key), { before: state.before, after: state.after });
    setStates((previous) => new Map(previous).set(key, state));
  };

  const run = async (targets: readonly string[], edits: MetadataEdits) => {
    setRunning(true);
    setStates((previous) => {
      const next = new Map(previous);
      for (const key of targets) next.set(key, { status: 'pending' });
      return next;
    });
    await runBulkEdit(
      client,
      targets.map((key) => ({ zone, bucket, key })),
      edits,
      visibility,
      recordDone,
    );
    setRunning(false);
    await invalidateObjectWrites(queryClient, client, bucket);
  };

  const [undoStates, setUndoStates] = useState<ReadonlyMap<string, BulkItemState>>(new Map());
  const [undoing, setUndoing] = useState(false);
  const undoAll = async () => {
    const targets: UndoTarget[] = [];
    for (const [key, state] of states) if (state.status === 'done') targets.push({ zone, bucket, key, before: state.before, after: state.after });
    setUndoing(true);
    await runBulkUndo(client, targets, visibility, (key, state) => {
      if (state.status === 'done') recordSave(lastSaveId(connectionId(client.connection), zone, bucket, key), null);
      setUndoStates((previous) => new Map(previous).set(key, state));
    });
    setUndoing(false);
    await invalidateObjectWrites(queryClient, client, bucket);
  };
  const undoCounts = { done: 0, failed: 0 };
  for (const state of undoStates.values()) {
    if (state.status === 'done') undoCounts.done += 1;
    else if (state.status === 'failed') undoCounts.failed += 1;
  }

  const onSubmit = (v: BulkValues) => {
    const edits = bulkEditsFromValues(v);
    if (Object.keys(edits.standard ?? {}).length === 0 && (edits.custom?.length ?? 0) === 0) {
      setNoEdits(true);
      return;
    }
    setNoEdits(false);
    editsRef.current = edits;
    void run(keys, edits);
  };

  const counts = { done: 0, unchanged: 0, failed: 0 };
  for (const state of states.values()) {
    if (state.status === 'done') counts.done += 1;
    else if (state.status === 'unchanged') counts.unchanged += 1;
    else if (state.status === 'failed') counts.failed += 1;
  }
  const finished = counts.done + counts.unchanged + counts.failed;
  const failedKeys = keys.filter((key) => states.get(key)?.status === 'failed');
  const started = states.size > 0;

  return (
    <div className="bulk-editor">
      <form onSubmit={(e) => void form.handleSubmit(onSubmit)(e)} noValidate>
        <fieldset disabled={running || started}>
          <legend>{t('metadata.standard')}</legend>
          {STANDARD_METADATA_HEADERS.map((name) => {
            const id = `${idBase}-${name}`;
            const choice = values.standard[name].choice;
            const rule = issues.get(`standard.${name}.value`);
            return (
              <div key={name} className="field bulk-field">
                <label htmlFor={`${id}-choice`}>{HEADER_LABELS[name]}</label>
                <select id={`${id}-choice`} {...form.register(`standard.${name}.choice`)}>
                  <option value="keep">{t('metadata.bulk.keep')}</option>
                  <option value="set">{t('metadata.bulk.set')}</option>
                  <option value="remove">{t('metadata.bulk.remove')}</option>
                </select>
                {choice === 'set' ? (
                  <>
                    <label htmlFor={`${id}-value`} className="visually-hidden">
                      {t('metadata.bulk.newValue', { header: HEADER_LABELS[name] })}
                    </label>
                    <input
                      id={`${id}-value`}
                      {...form.register(`standard.${name}.value`, { onChange: () => markTyped(`standard.${name}.value`) })}
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
        <fieldset disabled={running || started}>
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
                  {ops.fields.map((field, index) => {
                    const op = values.custom[index];
                    if (!op) return null;
                    const n = index + 1;
                    const id = `${idBase}-op-${field.id}`;
                    const keyRule = issues.get(`custom.${index}.key`);
                    const textRule = issues.get(`custom.${index}.text`);
                    return (
                      <tr key={field.id} className="meta-row bulk-op">
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
                              {...form.register(`custom.${index}.key`, { onChange: () => markTyped(`custom.${index}.key`) })}
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
                                {...form.register(`custom.${index}.text`, { onChange: () => markTyped(`custom.${index}.text`) })}
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
                            <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
                              <path d="M3 3l8 8M11 3l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                            </svg>
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ) : null}
          <button type="button" className="button button--small bulk-ops__add" onClick={() => ops.append({ op: 'set', key: '', text: '', encoding: 'percent', autoEncoding: true })}>
            {t('metadata.bulk.addOp')}
          </button>
        </fieldset>
        <p className="field-hint">{t('metadata.bulk.mergeNote')}</p>
        {noEdits ? <output className="status-line">{t('metadata.bulk.noEdits')}</output> : null}
        {!started ? (
          <SaveSafetyNotice block={block} bucket={{ zone, name: bucket }} allowAcknowledge={false} acknowledged={false} onAcknowledge={() => undefined} />
        ) : null}
        {!started ? (
          <div className="dialog__actions">
            <button type="submit" className="button button--primary" disabled={block !== null}>
              {tp('metadata.bulk.apply', keys.length)}
            </button>
          </div>
        ) : null}
      </form>

      {started ? (
        <section aria-label={t('metadata.bulk.progress')} className="bulk-progress">
          <progress max={keys.length} value={finished} aria-label={t('metadata.bulk.progress')} />
          <output className="status-line" data-testid="bulk-summary">
            {t('metadata.bulk.summary', { finished, total: keys.length, done: counts.done, unchanged: counts.unchanged, failed: counts.failed })}
          </output>
          {!running && failedKeys.length > 0 && editsRef.current ? (
            <button type="button" className="button button--primary" onClick={() => editsRef.current && void run(failedKeys, editsRef.current)}>
              {t('metadata.bulk.retry', { count: failedKeys.length })}
            </button>
          ) : null}
          {!running && counts.done > 0 && undoStates.size === 0 ? (
            <button type="button" className="button" onClick={() => void undoAll()}>
              {tp('metadata.bulk.undo', counts.done)}
            </button>
          ) : null}
          {undoStates.size > 0 ? (
            <output className="status-line" data-testid="bulk-undo-summary">
              {undoing ? t('metadata.undoing') : t('metadata.bulk.undone', { done: undoCounts.done, failed: undoCounts.failed })}
            </output>
          ) : null}
          <table className="table table--compact" data-testid="bulk-results">
            <caption>{t('metadata.bulk.results')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('details.key')}</th>
                <th scope="col">{t('metadata.bulk.status')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => {
                const state = states.get(key) ?? { status: 'pending' };
                const undoState = undoStates.get(key);
                return (
                  <tr key={key} data-status={state.status}>
                    <th scope="row" dir="auto" className="mono">
                      {key}
                    </th>
                    <td>
                      {state.status === 'failed' ? <BulkFailure error={state.error} /> : t(STATUS_LABELS[state.status])}
                      {state.status === 'done' ? <span className="mono"> {state.requestId}</span> : null}
                      {undoState?.status === 'done' ? <span> · {t('metadata.bulk.undoneOne')}</span> : null}
                      {undoState?.status === 'failed' ? <BulkFailure error={undoState.error} /> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}

const STATUS_LABELS: Record<BulkItemState['status'], MessageKey> = {
  pending: 'metadata.bulk.status.pending',
  running: 'metadata.bulk.status.running',
  done: 'metadata.bulk.status.done',
  unchanged: 'metadata.bulk.status.unchanged',
  failed: 'metadata.bulk.status.failed',
};

function BulkFailure({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (error instanceof MetadataEditError) {
    return (
      <span role="alert" data-error-code={error.violation.code}>
        <code>{error.violation.code}</code> — {t(ruleMessageKey(error.violation.rule), { bytes: error.violation.bytes ?? 0, limit: error.violation.limit ?? 0 })}
      </span>
    );
  }
  if (error instanceof BulkConflictError) return <span role="alert">{t('metadata.bulk.conflict')}</span>;
  if (error instanceof SaveBlockedError) {
    return <span role="alert">{t(blockMessageKey(error.block))}</span>;
  }
  return <ErrorNotice error={error} title={t('metadata.bulk.status.failed')} />;
}
