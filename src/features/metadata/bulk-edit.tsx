import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { connectionId } from '../../api/connection.ts';
import { MetadataEditError, type MetadataChange, type MetadataEdits } from '../../api/metadata/edit.ts';
import { decodeMetadataValue } from '../../api/metadata/encoding.ts';
import { CUSTOM_METADATA_PREFIX, METADATA_KEY_MAX_BYTES, STANDARD_METADATA_HEADERS, metadataKeyBytes } from '../../api/metadata/model.ts';
import { invalidateObjectWrites } from '../../api/objects/queries.ts';
import { Dialog, useDialogClose } from '../../components/dialog.tsx';
import { useUnsavedGuard, type GuardWording } from '../../components/unsaved-guard.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n, type MessageKey } from '../../i18n/i18n.tsx';
import { BULK_MAX_OBJECTS, BulkConflictError, BulkGate, listPrefixKeys, runBulkEdit, runBulkPreview, runBulkUndo, type BulkItemState, type BulkPreview, type UndoTarget } from './bulk.ts';
import { lastSaveId, recordSave } from './last-save.ts';
import { bulkEditsFromValues, bulkIssues, bulkSchema, bulkStoredValue, emptyBulkValues, type BulkValues } from './bulk-model.ts';
import { EncodingOffer, RemoveRowIcon, ruleMessageKey } from '../../components/metadata-form/metadata-form.tsx';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { completenessBlock, SaveBlockedError } from '../../api/metadata/save.ts';
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
  // Its open state is not in the URL: leaving the page (after the question) closes it, which stops the run.
  const guard = useUnsavedGuard(() => setOpen(false), { closeOnLeave: true });
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
      <Dialog open={open} onClose={() => setOpen(false)} title={tp('metadata.bulk.title', frozen.length)} guard={guard} wide>
        <BulkEditor zone={zone} bucket={bucket} keys={frozen} onDirty={guard.setDirty} />
      </Dialog>
    </>
  );
}

type Listing = { state: 'listing'; count: number } | { state: 'listed'; keys: readonly string[] } | { state: 'over-cap' } | { state: 'failed'; error: unknown };

/**
 * Bulk edit of every object under a folder (its subfolders included): lists the keys with the shared
 * pager, refuses a folder above BULK_MAX_OBJECTS, then offers the same editor as a selection.
 */
export function BulkEditPrefixDialog({ zone, bucket, prefix, onClose }: { zone: string; bucket: string; prefix: string; onClose: () => void }) {
  const { t } = useI18n();
  const guard = useUnsavedGuard(onClose, { closeOnLeave: true });
  return (
    <Dialog open onClose={onClose} title={t('metadata.bulkRun.prefixTitle', { prefix: visibleText(prefix) })} guard={guard} wide>
      <PrefixBulkEditor zone={zone} bucket={bucket} prefix={prefix} onDirty={guard.setDirty} />
    </Dialog>
  );
}

function PrefixBulkEditor({ zone, bucket, prefix, onDirty }: { zone: string; bucket: string; prefix: string; onDirty: (dirty: boolean, wording?: GuardWording) => void }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const [listing, setListing] = useState<Listing>({ state: 'listing', count: 0 });
  useEffect(() => {
    const controller = new AbortController();
    listPrefixKeys(client, { zone, bucket, prefix }, { signal: controller.signal, onPage: (count) => setListing({ state: 'listing', count }) }).then(
      (result) => setListing(result.overCap ? { state: 'over-cap' } : { state: 'listed', keys: result.keys }),
      (error: unknown) => {
        if (!controller.signal.aborted) setListing({ state: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [client, zone, bucket, prefix]);
  switch (listing.state) {
    case 'listing':
      return <output className="status-line">{t('metadata.bulkRun.listing', { count: listing.count })}</output>;
    case 'over-cap':
      return <p role="alert" className="notice notice--warn">{t('metadata.bulkRun.overCap', { cap: BULK_MAX_OBJECTS })}</p>;
    case 'failed':
      return <ErrorNotice error={listing.error} title={t('metadata.bulkRun.prefixTitle', { prefix: visibleText(prefix) })} />;
    case 'listed':
      if (listing.keys.length === 0) return <p className="status-line">{t('metadata.bulkRun.emptyPrefix')}</p>;
      return (
        <>
          <output className="status-line" data-testid="bulk-listed">{tp('metadata.bulkRun.listed', listing.keys.length)}</output>
          <BulkEditor zone={zone} bucket={bucket} keys={listing.keys} onDirty={onDirty} />
        </>
      );
  }
}

function hasAnyEdit(values: BulkValues): boolean {
  return values.custom.length > 0 || STANDARD_METADATA_HEADERS.some((name) => values.standard[name].choice !== 'keep');
}

function BulkEditor({ zone, bucket, keys, onDirty }: { zone: string; bucket: string; keys: readonly string[]; onDirty: (dirty: boolean, wording?: GuardWording) => void }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  const idBase = useId();
  const closeDialog = useDialogClose();
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
  const [undoing, setUndoing] = useState(false);
  const [noEdits, setNoEdits] = useState(false);
  const editsRef = useRef<MetadataEdits | null>(null);
  // The dry run: per object what would change or why it is skipped. Null until a preview was asked for.
  const [previews, setPreviews] = useState<ReadonlyMap<string, BulkPreview> | null>(null);
  const [previewing, setPreviewing] = useState(false);
  // The objects the run covers: all of them, or (after a preview) the ones that passed it.
  const [runKeys, setRunKeys] = useState<readonly string[]>(keys);
  // Pause/resume/cancel of the pool now running (the preview's or the run's).
  const gateRef = useRef<BulkGate | null>(null);
  const [gateState, setGateState] = useState<'open' | 'paused' | 'cancelled'>('open');
  const visibility = useHeaderVisibility(zone, bucket);
  // Bulk edit covers objects the user has not looked at one by one: hidden headers always block it.
  const block = completenessBlock(visibility);

  const started = states.size > 0;
  const dirty = running || previewing || undoing || (!started && hasAnyEdit(values));
  // Closing while objects are being read or written stops that work (the gate is cancelled below):
  // the question says so, rather than speaking of unsaved edits.
  const closing: 'run' | 'preview' | 'undo' | null = running ? 'run' : previewing ? 'preview' : undoing ? 'undo' : null;
  useEffect(() => {
    const wording: GuardWording | undefined =
      closing === 'run'
        ? { title: t('metadata.bulkRun.closeRunning.title'), body: t('metadata.bulkRun.closeRunning.body'), discard: t('metadata.bulkRun.closeRunning.stop'), keep: t('metadata.bulkRun.closeRunning.keep') }
        : closing === 'preview'
          ? { title: t('metadata.bulkRun.closePreview.title'), body: t('metadata.bulkRun.closePreview.body'), discard: t('metadata.bulkRun.closePreview.stop'), keep: t('metadata.bulkRun.closePreview.keep') }
          : closing === 'undo'
            ? { title: t('metadata.bulkRun.closeUndo.title'), body: t('metadata.bulkRun.closeUndo.body'), discard: t('metadata.bulkRun.closeUndo.stop'), keep: t('metadata.bulkRun.closeUndo.keep') }
            : undefined;
    onDirty(dirty, wording);
  }, [dirty, closing, onDirty, t]);
  useEffect(() => () => gateRef.current?.cancel(), []);

  const newGate = () => {
    const gate = new BulkGate();
    gateRef.current = gate;
    setGateState('open');
    return gate;
  };

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
      { gate: newGate() },
    );
    setRunning(false);
    await invalidateObjectWrites(queryClient, client, bucket);
  };

  const preview = async (edits: MetadataEdits) => {
    editsRef.current = edits;
    setPreviewing(true);
    setPreviews(new Map(keys.map((key) => [key, { status: 'pending' }] as const)));
    await runBulkPreview(
      client,
      keys.map((key) => ({ zone, bucket, key })),
      edits,
      visibility,
      (key, state) => setPreviews((previous) => new Map(previous).set(key, state)),
      { gate: newGate() },
    );
    setPreviewing(false);
  };

  const [undoStates, setUndoStates] = useState<ReadonlyMap<string, BulkItemState>>(new Map());
  const undoAll = async () => {
    const targets: UndoTarget[] = [];
    for (const [key, state] of states) if (state.status === 'done') targets.push({ zone, bucket, key, before: state.before, after: state.after });
    setUndoing(true);
    // Its own gate, so that closing the dialog (which cancels the current gate) stops the undo too.
    await runBulkUndo(
      client,
      targets,
      visibility,
      (key, state) => {
        if (state.status === 'done') recordSave(lastSaveId(connectionId(client.connection), zone, bucket, key), null);
        setUndoStates((previous) => new Map(previous).set(key, state));
      },
      { gate: newGate() },
    );
    setUndoing(false);
    await invalidateObjectWrites(queryClient, client, bucket);
  };
  const undoCounts = { done: 0, failed: 0 };
  for (const state of undoStates.values()) {
    if (state.status === 'done') undoCounts.done += 1;
    else if (state.status === 'failed') undoCounts.failed += 1;
  }

  const editsOf = (v: BulkValues): MetadataEdits | null => {
    const edits = bulkEditsFromValues(v);
    if (Object.keys(edits.standard ?? {}).length === 0 && (edits.custom?.length ?? 0) === 0) {
      setNoEdits(true);
      return null;
    }
    setNoEdits(false);
    return edits;
  };
  const onSubmit = (v: BulkValues) => {
    const edits = editsOf(v);
    if (!edits) return;
    editsRef.current = edits;
    setRunKeys(keys);
    void run(keys, edits);
  };
  const onPreview = (v: BulkValues) => {
    const edits = editsOf(v);
    if (edits) void preview(edits);
  };
  const passing = previews ? keys.filter((key) => previews.get(key)?.status === 'ready') : [];
  const applyPassing = () => {
    if (!editsRef.current) return;
    setRunKeys(passing);
    void run(passing, editsRef.current);
  };

  const counts = { done: 0, unchanged: 0, failed: 0, cancelled: 0 };
  for (const state of states.values()) {
    if (state.status === 'done') counts.done += 1;
    else if (state.status === 'unchanged') counts.unchanged += 1;
    else if (state.status === 'failed') counts.failed += 1;
    else if (state.status === 'cancelled') counts.cancelled += 1;
  }
  const finished = counts.done + counts.unchanged + counts.failed;
  const inRun = new Set(runKeys);
  const skippedKeys = runKeys.length < keys.length ? keys.filter((key) => !inRun.has(key)) : [];
  const failedKeys = runKeys.filter((key) => states.get(key)?.status === 'failed');
  const cancelledKeys = runKeys.filter((key) => states.get(key)?.status === 'cancelled');
  const editing = !started && previews === null;

  const previewCounts = { ready: 0, unchanged: 0, invalid: 0, blocked: 0, failed: 0, cancelled: 0, finished: 0 };
  for (const state of previews?.values() ?? []) {
    if (state.status === 'pending' || state.status === 'running') continue;
    previewCounts[state.status] += 1;
    if (state.status !== 'cancelled') previewCounts.finished += 1;
  }

  // The buttons that started a preview or a run go away with the form: the focus moves to what replaced them.
  const previewRef = useRef<HTMLDivElement>(null);
  const progressRef = useRef<HTMLElement>(null);
  const showingPreview = previews !== null && !started;
  useEffect(() => {
    if (showingPreview) previewRef.current?.focus();
  }, [showingPreview]);
  useEffect(() => {
    if (started) progressRef.current?.focus();
  }, [started]);

  const gateControls = (
    <div className="bulk-gate">
      {gateState === 'paused' ? (
        <button type="button" className="button" onClick={() => {
          gateRef.current?.resume();
          setGateState('open');
        }}>
          {t('metadata.bulkRun.resume')}
        </button>
      ) : (
        <button type="button" className="button" disabled={gateState === 'cancelled'} onClick={() => {
          gateRef.current?.pause();
          setGateState('paused');
        }}>
          {t('metadata.bulkRun.pause')}
        </button>
      )}
      <button type="button" className="button" disabled={gateState === 'cancelled'} onClick={() => {
        gateRef.current?.cancel();
        setGateState('cancelled');
      }}>
        {previewing ? t('metadata.bulkRun.stopPreview') : t('metadata.bulkRun.cancel')}
      </button>
      {gateState === 'paused' ? <output className="status-line">{t('metadata.bulkRun.paused')}</output> : null}
      {gateState === 'cancelled' ? <output className="status-line">{t('metadata.bulkRun.cancelling')}</output> : null}
    </div>
  );

  return (
    <div className="bulk-editor">
      <form onSubmit={(e) => void form.handleSubmit(onSubmit)(e)} noValidate>
        <fieldset disabled={!editing}>
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
        <fieldset disabled={!editing}>
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
                            <RemoveRowIcon />
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
        {editing ? (
          <SaveSafetyNotice block={block} bucket={{ zone, name: bucket }} allowAcknowledge={false} acknowledged={false} onAcknowledge={() => undefined} />
        ) : null}
        {editing ? (
          <div className="dialog__actions">
            {closeDialog ? (
              <button type="button" className="button" onClick={closeDialog}>
                {t('common.cancel')}
              </button>
            ) : null}
            <button type="button" className="button" disabled={block !== null} onClick={() => void form.handleSubmit(onPreview)()}>
              {t('metadata.bulkRun.preview')}
            </button>
            <button type="submit" className="button button--primary" disabled={block !== null}>
              {tp('metadata.bulk.apply', keys.length)}
            </button>
          </div>
        ) : null}
      </form>

      {showingPreview ? (
        <div className="bulk-progress" ref={previewRef} tabIndex={-1}>
          {previewing ? (
            <>
              <progress max={keys.length} value={previewCounts.finished} aria-label={t('metadata.bulk.progress')} />
              <output className="status-line" data-testid="bulk-preview-progress">
                {t('metadata.bulkRun.previewing', { finished: previewCounts.finished, total: keys.length })}
              </output>
              {gateControls}
            </>
          ) : (
            <>
              <output className="status-line" data-testid="bulk-preview-summary">
                {t('metadata.bulkRun.previewSummary', {
                  total: keys.length,
                  // "would change" always; the other outcomes only when some object has them.
                  parts: PREVIEW_PARTS.filter((part) => part === 'ready' || previewCounts[part] > 0)
                    .map((part) => t(`metadata.bulkRun.part.${part}`, { count: previewCounts[part] }))
                    .join(t('metadata.bulkRun.partSeparator')),
                })}
              </output>
              <p className="field-hint">{t('metadata.bulkRun.skipNote')}</p>
              <div className="dialog__actions">
                <button type="button" className="button" onClick={() => setPreviews(null)}>
                  {t('metadata.bulkRun.editAgain')}
                </button>
                <button type="button" className="button button--primary" disabled={passing.length === 0} onClick={applyPassing}>
                  {tp('metadata.bulkRun.applyPassing', passing.length)}
                </button>
              </div>
            </>
          )}
          <BulkTable label={t('metadata.bulkRun.previewResults')} testId="bulk-preview" className="bulk-preview" columns={[t('details.key'), t('metadata.bulk.status'), t('metadata.bulkRun.changes')]}>
            {keys.map((key) => (
              <PreviewRow key={key} rowKey={key} state={previews.get(key) ?? PENDING} />
            ))}
          </BulkTable>
        </div>
      ) : null}

      {started ? (
        <section aria-label={t('metadata.bulk.progress')} className="bulk-progress" ref={progressRef} tabIndex={-1}>
          <progress max={runKeys.length} value={finished} aria-label={t('metadata.bulk.progress')} />
          <output className="status-line" data-testid="bulk-summary">
            {counts.cancelled === 0
              ? t('metadata.bulk.summary', { finished, total: runKeys.length, done: counts.done, unchanged: counts.unchanged, failed: counts.failed })
              : t('metadata.bulkRun.summary', { finished, total: runKeys.length, ...counts })}
          </output>
          {runKeys.length < keys.length ? <p className="field-hint">{tp('metadata.bulkRun.skipped', keys.length - runKeys.length)}</p> : null}
          {running ? gateControls : null}
          <div className="bulk-actions">
            {!running && failedKeys.length > 0 && editsRef.current ? (
              <button type="button" className="button button--primary" onClick={() => editsRef.current && void run(failedKeys, editsRef.current)}>
                {t('metadata.bulk.retry', { count: failedKeys.length })}
              </button>
            ) : null}
            {!running && cancelledKeys.length > 0 && editsRef.current ? (
              <button type="button" className="button" onClick={() => editsRef.current && void run(cancelledKeys, editsRef.current)}>
                {tp('metadata.bulkRun.runRest', cancelledKeys.length)}
              </button>
            ) : null}
            {!running && counts.done > 0 && undoStates.size === 0 ? (
              <button type="button" className="button" onClick={() => void undoAll()}>
                {tp('metadata.bulk.undo', counts.done)}
              </button>
            ) : null}
          </div>
          {undoStates.size > 0 ? (
            <output className="status-line" data-testid="bulk-undo-summary">
              {undoing ? t('metadata.undoing') : t('metadata.bulk.undone', { done: undoCounts.done, failed: undoCounts.failed })}
            </output>
          ) : null}
          <BulkTable label={t('metadata.bulk.results')} testId="bulk-results" columns={[t('details.key'), t('metadata.bulk.status')]}>
            {runKeys.map((key) => (
              <ResultRow key={key} rowKey={key} state={states.get(key) ?? PENDING} undoState={undoStates.get(key)} />
            ))}
            {/* The objects the preview kept out of the run, last, each with its reason. */}
            {skippedKeys.map((key) => (
              <SkippedRow key={key} rowKey={key} state={previews?.get(key) ?? PENDING} />
            ))}
          </BulkTable>
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
  cancelled: 'metadata.bulkRun.status.cancelled',
};

const PENDING = { status: 'pending' } as const;

/** A per-object table of the dialog: a long list scrolls inside it, so the summary and its buttons stay in view. */
function BulkTable({ label, testId, className, columns, children }: { label: string; testId: string; className?: string; columns: readonly string[]; children: ReactNode }) {
  return (
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region is reachable by keyboard
    <section className="bulk-table-scroll" aria-label={label} tabIndex={0}>
      <table className={`table table--compact${className ? ` ${className}` : ''}`} data-testid={testId}>
        <caption>{label}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}

// Rows are memoized: a run reports every object twice, and only the row whose state changed re-renders.
const PreviewRow = memo(function PreviewRow({ rowKey, state }: { rowKey: string; state: BulkPreview }) {
  const { t } = useI18n();
  return (
    <tr data-status={state.status}>
      <th scope="row" dir="auto" className="mono">
        {visibleText(rowKey)}
      </th>
      <td>
        <span className="bulk-status">{t(PREVIEW_LABELS[state.status])}</span>
      </td>
      <td>
        <PreviewDetail state={state} />
      </td>
    </tr>
  );
});

const ResultRow = memo(function ResultRow({ rowKey, state, undoState }: { rowKey: string; state: BulkItemState; undoState: BulkItemState | undefined }) {
  const { t } = useI18n();
  return (
    <tr data-status={state.status}>
      <th scope="row" dir="auto" className="mono">
        {visibleText(rowKey)}
      </th>
      <td>
        {state.status === 'failed' ? <BulkFailure error={state.error} /> : <span className="bulk-status">{t(STATUS_LABELS[state.status])}</span>}
        {state.status === 'done' ? <span className="mono bulk-request-id"> {state.requestId}</span> : null}
        {undoState?.status === 'done' ? <span> · {t('metadata.bulk.undoneOne')}</span> : null}
        {undoState?.status === 'failed' ? <BulkFailure error={undoState.error} /> : null}
      </td>
    </tr>
  );
});

const SkippedRow = memo(function SkippedRow({ rowKey, state }: { rowKey: string; state: BulkPreview }) {
  const { t } = useI18n();
  return (
    <tr data-status="skipped">
      <th scope="row" dir="auto" className="mono">
        {visibleText(rowKey)}
      </th>
      <td>
        <span className="bulk-status">{t(PREVIEW_LABELS[state.status])}</span>
        <PreviewDetail state={state} />
      </td>
    </tr>
  );
});

const PREVIEW_PARTS = ['ready', 'unchanged', 'invalid', 'blocked', 'failed', 'cancelled'] as const;

const PREVIEW_LABELS: Record<BulkPreview['status'], MessageKey> = {
  pending: 'metadata.bulk.status.pending',
  running: 'metadata.bulk.status.running',
  ready: 'metadata.bulkRun.status.ready',
  unchanged: 'metadata.bulkRun.status.unchanged',
  invalid: 'metadata.bulkRun.status.invalid',
  blocked: 'metadata.bulkRun.status.blocked',
  failed: 'metadata.bulkRun.status.failed',
  cancelled: 'metadata.bulkRun.status.cancelled',
};

function ChangeValue({ field, value }: { field: string; value: string | undefined }) {
  const { t } = useI18n();
  if (value === undefined) return <>{t('common.none')}</>;
  const decoded = field.startsWith(CUSTOM_METADATA_PREFIX) ? decodeMetadataValue(value) : null;
  return decoded && decoded.encoding !== 'plain' ? <span dir="auto">{visibleText(decoded.text)}</span> : <code>{visibleText(value)}</code>;
}

function ChangeList({ changes }: { changes: readonly MetadataChange[] }) {
  return (
    <ul className="bulk-changes">
      {changes.map((change) => (
        <li key={change.field} data-kind={change.kind}>
          <span className="mono">{change.field}</span>: <ChangeValue field={change.field} value={change.before} /> → <ChangeValue field={change.field} value={change.after} />
        </li>
      ))}
    </ul>
  );
}

/** What the preview found for one object: its changes, or why it is skipped. */
function PreviewDetail({ state }: { state: BulkPreview }) {
  const { t } = useI18n();
  switch (state.status) {
    case 'ready':
      return <ChangeList changes={state.changes} />;
    case 'invalid':
      return (
        <>
          <BulkFailure error={state.error} />
          <ChangeList changes={state.changes} />
        </>
      );
    case 'blocked':
      return <span role="alert">{t(blockMessageKey(state.block))}</span>;
    case 'failed':
      return <BulkFailure error={state.error} />;
    default:
      return null;
  }
}

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
