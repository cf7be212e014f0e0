import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useRef, useState, type DragEvent } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import type { ObjectMetadata } from '../../../api/metadata/types.ts';
import { editorSchema, emptyEditorValues, metadataFromValues, type EditorValues } from '../../../components/metadata-form/form-model.ts';
import { MetadataFields } from '../../../components/metadata-form/metadata-form.tsx';
import { Loading } from '../../../components/spinner.tsx';
import { useClient } from '../../../hooks/use-client.ts';
import { isMessageKey, useI18n } from '../../../i18n/i18n.tsx';
import { formatBytes } from '../../../lib/format.ts';
import {
  compareFingerprints,
  findConflicts,
  markFreeKeys,
  resolveConflicts,
  type ConflictChoice,
  type KeyExists,
  entriesFromDataTransfer,
  filesFromInput,
  fingerprintFile,
  planBatch,
  walkEntries,
  type BatchProblem,
  type PlannedUpload,
  type ResumeRecord,
  type SourceFile,
} from '../engine/index.ts';
import { usePendingBatch } from './pending-batch.ts';
import { batchFormResolver, batchFormSchema, emptyBatchForm, type BatchFormValues } from './batch-form.ts';
import { RememberedUploads } from './remembered-uploads.tsx';
import { thresholdBytes } from './settings.ts';
import { UploadTotals } from './upload-items.tsx';
import { UploadTable } from './upload-table.tsx';
import { ConflictQuestion, Problems } from './upload-questions.tsx';
import { SettingsSection } from './upload-settings-section.tsx';
import { useUploadSession, useUploadsSnapshot, type UploadSession } from './upload-session.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/uploads.ts';
import { ConflictCheckProblem, keyExistsVia } from './conflict-check.tsx';
import { visibleText } from '../../../lib/visible-text.ts';

export interface UploadPanelProps {
  zone: string;
  bucket: string;
  /** The folder being browsed: the default target prefix. */
  prefix: string;
}

/** A planned multipart upload that matches a remembered unfinished one (same file, same key). */
interface ResumeOffer {
  upload: PlannedUpload;
  record: ResumeRecord;
}

/**
 * Upload files and folders into a bucket: drop zone + file and folder pickers, a target prefix, batch
 * metadata, transfer settings, and the live list of transfers (per file and overall progress, speed,
 * ETA, pause/resume for multipart, cancel, retry, final ETag).
 */
export function UploadPanel(props: UploadPanelProps) {
  const { t } = useI18n();
  const session = useUploadSession(useClient());
  // The session is created by the app's upload host on first need; this shows only while it loads.
  if (!session) return <Loading label={t('app.loading')} />;
  return <UploadPanelBody {...props} session={session} />;
}

function UploadPanelBody({ zone, bucket, prefix, session }: UploadPanelProps & { session: UploadSession }) {
  const { t, tp } = useI18n();
  const client = useClient();
  const snapshot = useUploadsSnapshot(session.queue);
  const [staged, setStaged] = useState<SourceFile[]>([]);
  const [problems, setProblems] = useState<BatchProblem[]>([]);
  const [offers, setOffers] = useState<{ offers: ResumeOffer[]; rest: PlannedUpload[] } | null>(null);
  const [checking, setChecking] = useState(false);
  // Files of the batch whose keys exist already: asked once for the whole batch before anything starts.
  const [conflict, setConflict] = useState<{ uploads: PlannedUpload[]; conflicts: PlannedUpload[]; fromPanel: boolean } | null>(null);
  // A batch dropped on the object list with existing keys: asked here, like one started from the panel.
  const pending = usePendingBatch(session.pendingBatch);
  const question = conflict ?? (pending?.bucket === bucket ? { uploads: pending.uploads, conflicts: pending.conflicts, fromPanel: false } : null);
  const closeQuestion = () => {
    setConflict(null);
    if (!question?.fromPanel) session.pendingBatch.set(undefined);
  };
  const keyExists = useMemo<KeyExists>(() => keyExistsVia(client), [client]);
  // A conflict check that failed, or a "keep both" that cannot name a file: said here, nothing starts.
  const [checkError, setCheckError] = useState<unknown>(null);
  const ids = { drop: useId(), files: useId(), folder: useId() };
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [dragOver, setDragOver] = useState(false);

  const form = useForm<BatchFormValues>({ resolver: batchFormResolver, defaultValues: emptyBatchForm(prefix) });
  // The batch's headers and custom metadata: the same form, rules and encoding offer as the metadata editor.
  const metaForm = useForm<EditorValues>({ resolver: zodResolver(editorSchema), defaultValues: emptyEditorValues(), mode: 'onChange' });
  const [metadataOpen, setMetadataOpen] = useState(false);

  const stage = (files: SourceFile[]) => {
    if (files.length === 0) return;
    setProblems([]);
    setStaged((current) => [...current, ...files]);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragOver(false);
    // The item list is only readable during the drop event: take the entries before awaiting anything.
    const roots = entriesFromDataTransfer(event.dataTransfer.items);
    const plainFiles = roots.length === 0 ? Array.from(event.dataTransfer.files) : [];
    void walkEntries(roots).then((found) => stage([...found, ...filesFromInput(plainFiles)]));
  };

  const start = form.handleSubmit(async (values) => {
    const parsed = batchFormSchema.parse(values);
    const checked: { values?: EditorValues } = {};
    await metaForm.handleSubmit((metaValues) => {
      checked.values = metaValues;
    })();
    if (!checked.values) {
      // Errors sit at their fields: make sure the section that holds them is open.
      setMetadataOpen(true);
      return;
    }
    const metadata: ObjectMetadata = metadataFromValues(checked.values);
    const plan = planBatch({ files: staged, bucket, zone, prefix: parsed.prefix, metadata, multipartThreshold: thresholdBytes(session.settings()) });
    setProblems(plan.problems);
    if (plan.uploads.length === 0) return;
    setChecking(true);
    setCheckError(null);
    try {
      const conflicts = await findConflicts(plan.uploads, keyExists);
      if (conflicts.length > 0) {
        setConflict({ uploads: plan.uploads, conflicts, fromPanel: true });
        return;
      }
      setStaged([]);
      await proceed(markFreeKeys(plan.uploads, conflicts));
    } catch (error) {
      setCheckError(error);
    } finally {
      setChecking(false);
    }
  });

  /** Offers to resume remembered multipart uploads of the batch, or queues it. */
  const proceed = async (uploads: PlannedUpload[]) => {
    const found = await findResumeOffers(session, uploads);
    if (found.offers.length > 0) setOffers(found);
    else if (uploads.length > 0) session.queue.add(uploads);
  };

  const decideConflict = async (choice: ConflictChoice) => {
    if (!question) return;
    setChecking(true);
    setCheckError(null);
    try {
      const resolved = await resolveConflicts(question.uploads, question.conflicts, choice, keyExists);
      closeQuestion();
      if (question.fromPanel) setStaged([]);
      await proceed(resolved);
    } catch (error) {
      setCheckError(error);
    } finally {
      setChecking(false);
    }
  };

  const decide = async (resume: boolean) => {
    if (!offers) return;
    if (!resume) {
      // Start over: forget the remembered uploads (and delete their parts) so the engine starts fresh.
      await Promise.all(offers.offers.map((offer) => session.queue.forgetResumable(offer.record, { abortRemote: true }).catch(() => undefined)));
    }
    session.queue.add([...offers.offers.map((o) => o.upload), ...offers.rest]);
    setOffers(null);
  };

  const stagedBytes = staged.reduce((sum, s) => sum + s.file.size, 0);
  const threshold = thresholdBytes(session.settings());

  return (
    <section className="uploads" aria-labelledby="uploads-title">
      <h2 id="uploads-title">{t('uploads.title', { bucket })}</h2>
      <form onSubmit={(e) => void start(e)} noValidate>
        <div
          id={ids.drop}
          className={`dropzone${dragOver ? ' dropzone--over' : ''}`}
          data-testid="dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragOver(true);
          }}
          onDragLeave={() => setDragOver(false)}
          onDrop={onDrop}
        >
          <p>{t('uploads.dropHere')}</p>
          <div className="notice__actions">
            <button type="button" className="button" onClick={() => filesInput.current?.click()}>
              {t('uploads.chooseFiles')}
            </button>
            <button type="button" className="button" onClick={() => folderInput.current?.click()}>
              {t('uploads.chooseFolder')}
            </button>
          </div>
          <input
            ref={filesInput}
            id={ids.files}
            className="visually-hidden"
            type="file"
            multiple
            aria-label={t('uploads.chooseFiles')}
            tabIndex={-1}
            onChange={(e) => {
              stage(filesFromInput(e.target.files ?? []));
              e.target.value = '';
            }}
          />
          <input
            ref={(element) => {
              folderInput.current = element;
              // Not in React's typings: directory picking is the non-standard (but universal) webkitdirectory.
              element?.setAttribute('webkitdirectory', '');
            }}
            id={ids.folder}
            className="visually-hidden"
            type="file"
            multiple
            aria-label={t('uploads.chooseFolder')}
            tabIndex={-1}
            onChange={(e) => {
              stage(filesFromInput(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </div>

        {staged.length > 0 ? (
          <div className="uploads__staged">
            <p data-testid="staged-summary">{tp('uploads.staged', staged.length, { bytes: formatBytes(stagedBytes) })}</p>
            <ul className="uploads__staged-list" aria-label={t('uploads.stagedList')}>
              {staged.slice(0, 50).map((s, i) => (
                <li key={`${s.relativePath}\u0000${i}`} className="uploads__staged-item">
                  <span className="uploads__staged-name" dir="auto">
                    {visibleText(s.relativePath)}
                  </span>{' '}
                  <span className="field-hint">({formatBytes(s.file.size)}{s.file.size >= threshold ? `, ${t('uploads.kind.multipart')}` : ''})</span>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    aria-label={t('uploads.queue.unstageOf', { name: s.relativePath })}
                    onClick={() => setStaged((current) => current.filter((other) => other !== s))}
                  >
                    {t('uploads.queue.unstage')}
                  </button>
                </li>
              ))}
              {staged.length > 50 ? <li>{t('uploads.stagedMore', { count: staged.length - 50 })}</li> : null}
            </ul>
          </div>
        ) : null}

        <TextField label={t('uploads.prefix')} hint={t('uploads.prefixHint')} error={form.formState.errors.prefix} registration={form.register('prefix')} />

        <details className="uploads__section" open={metadataOpen} onToggle={(e) => setMetadataOpen(e.currentTarget.open)}>
          <summary>{t('uploads.metadata')}</summary>
          <p className="field-hint">{t('uploads.metadataHint')}</p>
          <MetadataFields form={metaForm} />
        </details>

        {problems.length > 0 ? <Problems problems={problems} /> : null}

        {/* Nothing chosen yet: no "Upload 0 files" button above the transfers. */}
        {staged.length > 0 ? (
          <div className="notice__actions">
            <button type="submit" className="button button--primary" disabled={checking || question !== null}>
              {checking ? t('uploads.checking') : tp('uploads.start', staged.length)}
            </button>
            <button type="button" className="button" onClick={() => setStaged([])}>
              {t('uploads.clearStaged')}
            </button>
          </div>
        ) : null}
      </form>

      {checkError !== null ? <ConflictCheckProblem error={checkError} /> : null}
      {question ? <ConflictQuestion bucket={bucket} conflicts={question.conflicts} busy={checking} onDecide={(choice) => void decideConflict(choice)} onCancel={closeQuestion} /> : null}

      {offers ? (
        <div className="notice notice--warn" role="alert">
          <p>{t('uploads.resumeOffer', { count: offers.offers.length })}</p>
          <ul>
            {offers.offers.map((offer) => (
              <li key={offer.record.uploadId} dir="auto">
                {offer.upload.key} ({formatBytes(offer.upload.file.size)})
              </li>
            ))}
          </ul>
          <div className="notice__actions">
            <button type="button" className="button button--primary" onClick={() => void decide(true)}>
              {t('uploads.resumeYes')}
            </button>
            <button type="button" className="button" onClick={() => void decide(false)}>
              {t('uploads.resumeNo')}
            </button>
          </div>
        </div>
      ) : null}

      <SettingsSection session={session} />
      <RememberedUploads session={session} bucket={bucket} />
      {snapshot.items.length > 0 ? <UploadTotals snapshot={snapshot} queue={session.queue} /> : null}
      <UploadTable items={snapshot.items} queue={session.queue} />
    </section>
  );
}

async function findResumeOffers(session: UploadSession, uploads: readonly PlannedUpload[]): Promise<{ offers: ResumeOffer[]; rest: PlannedUpload[] }> {
  const multipart = uploads.filter((u) => u.kind === 'multipart');
  if (multipart.length === 0) return { offers: [], rest: [...uploads] };
  const records = await session.queue.listResumable();
  const offers: ResumeOffer[] = [];
  const rest: PlannedUpload[] = [];
  for (const upload of uploads) {
    const candidates = upload.kind === 'multipart' ? records.filter((r) => r.bucket === upload.bucket && r.key === upload.key && r.fingerprint.size === upload.file.size) : [];
    let match: ResumeRecord | undefined;
    if (candidates.length > 0) {
      const fingerprint = await fingerprintFile(upload.file, session.hasher);
      match = candidates.find((r) => compareFingerprints(fingerprint, r.fingerprint) !== 'different');
    }
    if (match) offers.push({ upload, record: match });
    else rest.push(upload);
  }
  return { offers, rest };
}

function RuleError({ error, id }: { error: FieldError; id?: string }) {
  const { t } = useI18n();
  const key = `uploads.rule.${error.type}`;
  return (
    <p id={id} className="field-error">
      {isMessageKey(key) ? t(key) : (error.message ?? '')}
    </p>
  );
}

function TextField({ label, hint, error, registration }: {
  label: string;
  hint?: string;
  error: FieldError | undefined;
  registration: ReturnType<ReturnType<typeof useForm<BatchFormValues>>['register']>;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} dir="auto" spellCheck={false} autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} {...registration} />
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? <RuleError id={`${id}-error`} error={error} /> : null}
    </div>
  );
}

