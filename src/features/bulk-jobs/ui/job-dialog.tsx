import { useEffect, useRef, useState, type ComponentType } from 'react';
import { Dialog, useDialogClose } from '../../../components/dialog.tsx';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useUnsavedGuard, type GuardWording } from '../../../components/unsaved-guard.tsx';
import { useHeaderVisibility } from '../../../hooks/use-header-visibility.ts';
import { useI18n } from '../../../i18n/i18n.tsx';
import { Link, useLocation } from '../../../lib/router.tsx';
import type { DryRun } from '../engine/dry-run.ts';
import type { JobHost, StartOutcome } from '../engine/host.ts';
import { destinationProblem, type JobOperation, type JobScope } from '../engine/types.ts';
import { DestinationFields, destinationOf, type DestinationValue } from './destination-fields.tsx';
import { DryRunSummary, DryRunTable } from './dry-run-view.tsx';
import { EditsFields, editsOf, useEditsForm } from './edits-form.tsx';
import { jobTitle, scopeTitle } from './job-text.ts';
import { JobView } from './job-view.tsx';
import { useJobClient, useJobEntry } from './use-jobs.ts';
import { useScopeCount } from './use-scope-count.ts';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './jobs.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/metadata.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../../i18n/parts/jobs.ts';

export type StartKind = 'edit' | 'copy' | 'move' | 'delete';
const KINDS: readonly StartKind[] = ['edit', 'copy', 'move', 'delete'];

/** What the metadata feature shows about a bucket whose CORS rule would make an edit unsafe (given by the app). */
export interface SafetyProps {
  zone: string;
  bucket: string;
  onBlocked: (blocked: boolean) => void;
}

export interface JobDialogProps {
  host: JobHost;
  zone: string;
  bucket: string;
  scope: JobScope;
  initial?: StartKind;
  onClose: () => void;
  Safety: ComponentType<SafetyProps>;
}

/**
 * A bulk job's dialog: choose what to do, see how many objects it covers and (dry run) what happens to the
 * first ones, then start it. Once started, the dialog shows the job live; closing it leaves the job running
 * (the header's indicator and the Jobs page show it), while closing during the dry run stops the dry run.
 */
export function JobDialog({ host, zone, bucket, scope, initial = 'edit', onClose, Safety }: JobDialogProps) {
  const { t, tp } = useI18n();
  const guard = useUnsavedGuard(onClose, { closeOnLeave: true });
  const [kind, setKind] = useState<StartKind>(initial);
  const [jobId, setJobId] = useState<string | null>(null);
  const entry = useJobEntry(host, jobId);
  const title = entry ? jobTitle({ t, tp }, entry.record) : scopeTitle({ t, tp }, kind, scope, bucket);
  const { setDirty } = guard;
  // Its open state is not in the URL: any navigation closes it (a job it started goes on; the header shows it).
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const opened = useRef(here);
  useEffect(() => {
    if (here !== opened.current) onClose();
  }, [here, onClose]);
  return (
    <Dialog open onClose={onClose} title={title} guard={guard} wide>
      {jobId ? (
        <JobStarted host={host} id={jobId} onJob={setJobId} onShown={() => setDirty(false)} />
      ) : (
        <JobStarter host={host} zone={zone} bucket={bucket} scope={scope} kind={kind} onKind={setKind} onStarted={setJobId} onDirty={setDirty} Safety={Safety} />
      )}
    </Dialog>
  );
}

function JobStarted({ host, id, onJob, onShown }: { host: JobHost; id: string; onJob: (id: string) => void; onShown: () => void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDivElement>(null);
  // A new job shown (the one just started, or its undo): nothing is at stake any more, and it takes the focus.
  useEffect(() => {
    onShown();
    ref.current?.focus();
    // oxlint-disable-next-line react/exhaustive-effect-dependencies -- runs for each job shown
  }, [id, onShown]);
  return (
    <div ref={ref} tabIndex={-1} className="job-started">
      <JobView
        host={host}
        id={id}
        onJob={onJob}
        footer={
          <p className="job-view__more">
            <Link to={`/jobs?job=${encodeURIComponent(id)}`}>{t('jobs.openInJobs')}</Link>
          </p>
        }
      />
    </div>
  );
}

type Preview = { state: 'running'; sampled: number; controller: AbortController } | { state: 'done'; result: DryRun } | { state: 'failed'; error: unknown };

function JobStarter({ host, zone, bucket, scope, kind, onKind, onStarted, onDirty, Safety }: {
  host: JobHost;
  zone: string;
  bucket: string;
  scope: JobScope;
  kind: StartKind;
  onKind: (kind: StartKind) => void;
  onStarted: (id: string) => void;
  onDirty: (dirty: boolean, wording?: GuardWording) => void;
  Safety: ComponentType<SafetyProps>;
}) {
  const { t, tp } = useI18n();
  const closeDialog = useDialogClose();
  const jobClient = useJobClient();
  const visibility = useHeaderVisibility(zone, bucket);
  const count = useScopeCount(zone, bucket, scope);
  const edits = useEditsForm();
  const [destination, setDestination] = useState<DestinationValue>({ bucket, folder: '', overwrite: 'skip' });
  const [confirmation, setConfirmation] = useState('');
  const [blocked, setBlocked] = useState(false);
  const [noEdits, setNoEdits] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [outcome, setOutcome] = useState<StartOutcome | null>(null);
  const [starting, setStarting] = useState(false);
  const previewRef = useRef<HTMLDivElement>(null);

  const previewing = preview?.state === 'running';
  const dirty = previewing || (kind === 'edit' ? edits.touched : destination.folder !== '' || confirmation !== '');
  useEffect(() => {
    onDirty(
      dirty,
      previewing ? { title: t('metadata.bulkRun.closePreview.title'), body: t('metadata.bulkRun.closePreview.body'), discard: t('metadata.bulkRun.closePreview.stop'), keep: t('metadata.bulkRun.closePreview.keep') } : undefined,
    );
  }, [dirty, previewing, onDirty, t]);
  // Closing the dialog stops a dry run under way.
  const running = useRef<AbortController | null>(null);
  useEffect(() => {
    running.current = preview?.state === 'running' ? preview.controller : null;
  }, [preview]);
  useEffect(() => () => running.current?.abort(), []);
  const showingPreview = preview !== null;
  useEffect(() => {
    if (showingPreview) previewRef.current?.focus();
  }, [showingPreview]);

  const n = count.state === 'failed' ? 0 : kind === 'edit' ? count.objects : count.all;
  const counted = count.state === 'counted';
  const destinationIssue = kind === 'copy' || kind === 'move' ? destinationProblem(bucket, scope, destinationOf(destination)) : null;
  const needsConfirmation = scope.kind === 'bucket' && confirmation !== bucket;
  const cannotStart = starting || previewing || (kind === 'edit' && blocked) || destinationIssue !== null || needsConfirmation || count.state === 'failed' || (counted && n === 0);

  const operationFrom = (): JobOperation | null => {
    if (kind === 'delete') return { kind: 'delete' };
    if (kind === 'copy' || kind === 'move') return { kind, destination: destinationOf(destination), overwrite: destination.overwrite };
    const asked = editsOf(edits.values);
    setNoEdits(asked === null);
    return asked ? { kind: 'edit', edits: asked } : null;
  };
  const withOperation = (then: (operation: JobOperation) => void) => {
    if (kind === 'edit') {
      void edits.form.handleSubmit(() => {
        const operation = operationFrom();
        if (operation) then(operation);
      })();
      return;
    }
    const operation = operationFrom();
    if (operation) then(operation);
  };
  const start = () =>
    withOperation((operation) => {
      setStarting(true);
      host.create(jobClient, { zone, bucket, scope, operation, total: counted ? n : null }).then(
        (result) => {
          setStarting(false);
          setOutcome(result);
          if (result.kind === 'started') onStarted(result.id);
        },
        (error: unknown) => {
          setStarting(false);
          setPreview({ state: 'failed', error });
        },
      );
    });
  const runPreview = () =>
    withOperation((operation) => {
      const controller = new AbortController();
      setPreview({ state: 'running', sampled: 0, controller });
      host
        .dryRun(jobClient, { job: { zone, bucket, scope, operation }, visibility, signal: controller.signal, onProgress: ({ sampled }) => setPreview((p) => (p?.state === 'running' && p.controller === controller ? { ...p, sampled } : p)) })
        .then(
          (result) => {
            if (!controller.signal.aborted) setPreview({ state: 'done', result });
          },
          (error: unknown) => {
            if (!controller.signal.aborted) setPreview({ state: 'failed', error });
          },
        );
    });

  const editing = preview === null;
  const startLabel = counted && n > 0 ? tp(`jobs.start.${kind}`, n) : t('jobs.start.any');
  return (
    <div className="job-starter">
      <ScopeLine count={count} scope={scope} kind={kind} />
      <fieldset className="job-choice job-operations" disabled={!editing}>
        <legend>{t('jobs.operation')}</legend>
        {KINDS.map((choice) => (
          <label key={choice}>
            <input type="radio" name="job-operation" value={choice} checked={kind === choice} onChange={() => onKind(choice)} />
            {t(`jobs.operation.${choice}`)}
          </label>
        ))}
      </fieldset>
      <form onSubmit={(e) => {
        e.preventDefault();
        start();
      }} noValidate>
        {kind === 'edit' ? <EditsFields edits={edits} disabled={!editing} /> : null}
        {kind === 'copy' || kind === 'move' ? <DestinationFields zone={zone} bucket={bucket} scope={scope} value={destination} onChange={setDestination} disabled={!editing} /> : null}
        {kind === 'delete' ? <p className="notice notice--warn">{t('jobs.delete.warning')}</p> : null}
        {host.inMemory ? <p className="notice notice--warn">{t('jobs.inMemory')}</p> : null}
        {noEdits && kind === 'edit' ? <output className="status-line">{t('metadata.bulk.noEdits')}</output> : null}
        {kind === 'edit' ? <Safety zone={zone} bucket={bucket} onBlocked={setBlocked} /> : null}
        {scope.kind === 'bucket' ? (
          <div className="field job-confirm">
            <label htmlFor="job-confirm-bucket">{t('jobs.confirmBucket.label')}</label>
            <input id="job-confirm-bucket" className="mono" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="off" spellCheck={false} aria-describedby="job-confirm-hint" disabled={!editing} />
            <p id="job-confirm-hint" className="field-hint">{t('jobs.confirmBucket.hint', { bucket })}</p>
          </div>
        ) : null}
        {editing ? (
          <div className="dialog__actions">
            {closeDialog ? (
              <button type="button" className="button" onClick={closeDialog}>
                {t('common.cancel')}
              </button>
            ) : null}
            <button type="button" className="button" disabled={cannotStart} onClick={runPreview}>
              {t('metadata.bulkRun.preview')}
            </button>
            <button type="submit" className={`button ${kind === 'delete' ? 'button--danger' : 'button--primary'}`} disabled={cannotStart}>
              {startLabel}
            </button>
          </div>
        ) : null}
      </form>
      {outcome?.kind === 'busy' ? (
        <p role="alert" className="notice notice--warn">
          {t('jobs.busy', { title: jobTitle({ t, tp }, outcome.other) })}
        </p>
      ) : null}
      {preview ? (
        <div className="bulk-progress" ref={previewRef} tabIndex={-1}>
          {preview.state === 'running' ? (
            <>
              <output className="status-line" data-testid="bulk-preview-progress">
                {t('jobs.dryRun.reading', { finished: preview.sampled, total: Math.min(100, Math.max(n, preview.sampled)) })}
              </output>
              <div className="bulk-gate">
                <button type="button" className="button" onClick={() => { preview.controller.abort(); setPreview(null); }}>
                  {t('jobs.dryRun.stop')}
                </button>
              </div>
            </>
          ) : null}
          {preview.state === 'failed' ? <ErrorNotice error={preview.error} title={t('metadata.bulkRun.preview')} /> : null}
          {preview.state === 'done' ? (
            <>
              <DryRunSummary result={preview.result} />
              <p className="field-hint">{t('jobs.dryRun.skipNote')}</p>
              <div className="dialog__actions">
                <button type="button" className="button" onClick={() => setPreview(null)}>
                  {t('metadata.bulkRun.editAgain')}
                </button>
                <button type="button" className={`button ${kind === 'delete' ? 'button--danger' : 'button--primary'}`} disabled={starting || needsConfirmation} onClick={start}>
                  {tp(`jobs.start.${kind}`, preview.result.total)}
                </button>
              </div>
              <DryRunTable rows={preview.result.sample} />
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function ScopeLine({ count, scope, kind }: { count: ReturnType<typeof useScopeCount>; scope: JobScope; kind: StartKind }) {
  const { t, tp } = useI18n();
  if (count.state === 'failed') return <ErrorNotice error={count.error} title={t('jobs.countFailed')} />;
  const where = scope.kind === 'keys' ? 'keys' : scope.kind;
  const n = kind === 'edit' ? count.objects : count.all;
  if (count.state === 'counting') return <output className="status-line" data-testid="bulk-listed">{t(where === 'bucket' ? 'jobs.counting.bucket' : 'jobs.counting.prefix', { count: n })}</output>;
  if (n === 0) return <p className="status-line" data-testid="bulk-listed">{t('jobs.emptyScope')}</p>;
  return <output className="status-line" data-testid="bulk-listed">{tp(`jobs.counted.${where}`, n, { verb: t(`jobs.verb.${kind}`) })}</output>;
}
