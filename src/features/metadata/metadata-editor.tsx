import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from '../../lib/router.tsx';
import type { ObjectRef } from '../../api/client.ts';
import { connectionId } from '../../api/connection.ts';
import { applyMetadataEdits, diffMetadata, MetadataEditError, type MetadataEdits } from '../../api/metadata/edit.ts';
import { headObjectReadable, type ObjectHead } from '../../api/objects/read.ts';
import { objectEditBaseQuery } from '../../api/objects/queries.ts';
import { saveMetadataMutation } from '../../api/metadata/queries.ts';
import { Dialog, useDialogClose } from '../../components/dialog.tsx';
import { useUnsavedGuard } from '../../components/unsaved-guard.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Banner } from '../../components/ui/banner.tsx';
import { ActionRow, Button } from '../../components/ui/button.tsx';
import { Loading } from '../../components/spinner.tsx';
import { readQueryParam } from '../../hooks/browse-location.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { editorSchema, editsBetween, editsFromValues, hasEdits, valuesFromMetadata, type EditorValues } from '../../components/metadata-form/form-model.ts';
import { lastSaveId, recordSave } from './last-save.ts';
import { forgetUndo } from './undo.ts';
import { SavedBanner, UndoLastSave, useSavedToast } from './undo-view.tsx';
import { MetadataDiff } from './metadata-diff.tsx';
import { MetadataFields, ruleMessageKey } from '../../components/metadata-form/metadata-form.tsx';
import { hiddenFor, saveBlock, SaveBlockedError, versionGuard, type SaveResult } from '../../api/metadata/save.ts';
import { withFlag } from './url-flag.ts';
import { changesFrom, reviewChanges, withRefusedReplaced } from './refused-header.ts';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { blockMessageKey, GuardNote, SaveSafetyNotice } from './visibility-notice.tsx';
import { copyLimitOf, isCancelled } from '../../api/metadata/large-copy.ts';
import { LargeCopyStatus, useLargeCopy } from './large-copy-status.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './metadata.css';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

function SaveFailure({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (error instanceof SaveBlockedError) {
    return (
      <div className="notice notice--error" role="alert">
        <p>{t('metadata.blocked', { reason: t(blockMessageKey(error.block)) })}</p>
      </div>
    );
  }
  if (error instanceof MetadataEditError) {
    return (
      <div className="notice notice--error" role="alert" data-error-code={error.violation.code}>
        <p>{t('metadata.saveRefused')}</p>
        <p>
          <code>{error.violation.code}</code> — {t(ruleMessageKey(error.violation.rule), { bytes: error.violation.bytes ?? 0, limit: error.violation.limit ?? 0 })}
        </p>
      </div>
    );
  }
  return <ErrorNotice error={error} />;
}

/**
 * "Edit metadata" and "Undo last save" for the object open in the details panel. The editor is a modal
 * whose open state lives in the URL (`edit=1`), so it can be linked to directly.
 */
export function MetadataEditorLauncher({ zone, bucket, objectKey: key }: { zone: string; bucket: string; objectKey: string }) {
  const { t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useClient();
  const headingId = useId();
  const open = readQueryParam(location.search, 'edit') === '1';
  const setOpen = (on: boolean) => {
    if (on !== open) navigate({ search: withFlag(location.search, 'edit', on) }, { replace: !on });
  };
  const saveId = lastSaveId(connectionId(client.connection), zone, bucket, key);
  const ref: ObjectRef = { zone, bucket, key };
  const guard = useUnsavedGuard(() => setOpen(false));

  return (
    <section className="details__section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('metadata.title')}</h3>
      <div className="metadata-launch">
        <Button onClick={() => setOpen(true)}>{t('metadata.edit')}</Button>
      </div>
      {/* While the editor is open its own undo is the one to use; the background is inert anyway. */}
      {!open ? <UndoLastSave key={saveId} saveId={saveId} objectRef={ref} /> : null}
      <Dialog open={open} onClose={() => setOpen(false)} title={t('metadata.editorTitle', { key })} subject={key} guard={guard} wide>
        <MetadataEditor objectRef={ref} saveId={saveId} onClose={() => setOpen(false)} onDirty={guard.setDirty} />
      </Dialog>
    </section>
  );
}

/** Loads a fresh HEAD as the editor's base, then hands over to the editing session. */
function MetadataEditor({ objectRef, saveId, onClose, onDirty }: { objectRef: ObjectRef; saveId: string; onClose: () => void; onDirty: (dirty: boolean) => void }) {
  const { t } = useI18n();
  const client = useClient();
  const base = useQuery(objectEditBaseQuery(client, objectRef));
  if (base.isPending) return <Loading label={t('metadata.loading')} />;
  if (base.isError) return <ErrorNotice error={base.error} onRetry={() => void base.refetch()} />;
  return <EditorSession key={`${base.data.etag}|${base.data.lastModifiedRaw}`} base={base.data} objectRef={objectRef} saveId={saveId} onClose={onClose} onDirty={onDirty} />;
}

type Step =
  | { name: 'edit' }
  | { name: 'review'; base: ObjectHead; edits: MetadataEdits; origin: 'edit' | 'reapply' | 'overwrite' | 'reread' }
  | { name: 'conflict'; base: ObjectHead; theirs: ObjectHead; edits: MetadataEdits; detectedBy: 'head' | 'precondition' | 'verify' }
  | { name: 'saved'; result: Extract<SaveResult, { kind: 'saved' }> };

function EditorSession({ base, objectRef, saveId, onClose: closeNow, onDirty }: {
  base: ObjectHead;
  objectRef: ObjectRef;
  saveId: string;
  onClose: () => void;
  onDirty: (dirty: boolean) => void;
}) {
  const { t } = useI18n();
  // Cancel asks first when there are unsaved edits (the dialog's guard); outside a dialog it just closes.
  const onClose = useDialogClose() ?? closeNow;
  const client = useClient();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ name: 'edit' });
  const [noChanges, setNoChanges] = useState(false);
  const zone = objectRef.zone ?? client.connection.defaultZone;
  const visibility = useHeaderVisibility(zone, objectRef.bucket);
  const [acknowledged, setAcknowledged] = useState(false);
  const form = useForm<EditorValues>({
    defaultValues: valuesFromMetadata(base.metadata),
    resolver: zodResolver(editorSchema),
    mode: 'onChange',
  });
  // oxlint-disable-next-line react/incompatible-library -- watch() re-renders on each change: dirtiness is live
  const watched = form.watch();
  // Unsaved = the form holds an edit (not merely a touched field) and it has not been saved yet.
  const dirty = step.name !== 'saved' && (step.name !== 'edit' || hasEdits(editsFromValues(base.metadata, watched)));
  useEffect(() => {
    onDirty(dirty);
  }, [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);
  const largeCopy = useLargeCopy(client);
  const showSavedToast = useSavedToast(saveId, objectRef, visibility);
  const save = useMutation(
    saveMetadataMutation(client, queryClient, (result, input) => {
      if (result.kind === 'saved') {
        forgetUndo(saveId);
        recordSave(saveId, { before: result.before, after: result.after });
        showSavedToast();
        setStep({ name: 'saved', result });
      } else {
        setStep({ name: 'conflict', base: input.base, theirs: result.theirs, edits: input.edits, detectedBy: result.detectedBy });
      }
    }),
  );

  const bucketRef = { zone, name: objectRef.bucket };
  const editBlock = saveBlock(visibility, base, false);
  /** After the CORS rule changed: read the object again and review the same edits on what it now shows. */
  const reread = async () => {
    const head = await headObjectReadable(client, objectRef);
    const edits = step.name === 'review' || step.name === 'conflict' ? step.edits : withRefusedReplaced(base, editsFromValues(base.metadata, form.getValues()));
    setAcknowledged(false);
    save.reset();
    setStep({ name: 'review', base: head, edits, origin: 'reread' });
  };

  const onReview = (values: EditorValues) => {
    // A refused Content-Encoding is replaced by any save, so the form as loaded is already a change (the repair).
    const edits = withRefusedReplaced(base, editsFromValues(base.metadata, values));
    if (!hasEdits(edits)) {
      setNoChanges(true);
      return;
    }
    setNoChanges(false);
    save.reset();
    setStep({ name: 'review', base, edits, origin: 'edit' });
  };

  if (step.name === 'edit') {
    return (
      <form className="metadata-editor" onSubmit={(e) => void form.handleSubmit(onReview)(e)} noValidate>
        {base.refused ? (
          <p className="notice notice--error" role="alert" data-testid="refused-notice">
            {t('metadata.refusedEncoding')}
          </p>
        ) : null}
        {editBlock && editBlock.kind !== 'checking' ? (
          <SaveSafetyNotice block={editBlock} bucket={bucketRef} allowAcknowledge={false} acknowledged={false} onAcknowledge={() => undefined} onFixed={() => void reread()} />
        ) : null}
        <MetadataFields
          form={form}
          unreadable={[
            ...hiddenFor(visibility, base).standard.map((header) => ({ header, why: 'cors' as const })),
            ...(base.refused ? [{ header: base.refused, why: 'refused' as const }] : []),
          ]}
        />
        <div className="meta-footer">
          {noChanges ? <output className="status-line">{t('metadata.noChanges')}</output> : null}
          {form.formState.isSubmitted && !form.formState.isValid ? <p role="alert" className="field-error">{t('metadata.fixErrors')}</p> : null}
          <div className="meta-footer__buttons">
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" variant="primary">
              {t('metadata.review')}
            </Button>
          </div>
        </div>
      </form>
    );
  }

  if (step.name === 'review') {
    const changes = reviewChanges(step.base, step.edits);
    const reviewBlock = saveBlock(visibility, step.base, acknowledged, copyLimitOf(client.connection));
    // The notice stays while acknowledged (the user can take it back); Save follows reviewBlock.
    const noticeBlock = saveBlock(visibility, step.base, false, copyLimitOf(client.connection));
    return (
      <div className="metadata-editor">
        {step.origin !== 'edit' ? <p>{t(step.origin === 'reapply' ? 'metadata.reviewReapply' : step.origin === 'reread' ? 'metadata.reviewReread' : 'metadata.reviewOverwrite')}</p> : null}
        <MetadataDiff changes={changes} caption={t('metadata.diff.caption')} />
        {noticeBlock === null ? <p className="field-hint">{t('metadata.fullSetNote')}</p> : null}
        <SaveSafetyNotice block={noticeBlock} bucket={bucketRef} allowAcknowledge acknowledged={acknowledged} onAcknowledge={setAcknowledged} onFixed={() => void reread()} />
        {reviewBlock === null ? (
          <details className="disclosure">
            <summary>{t('metadata.howSaveWorks')}</summary>
            <p className="field-hint">{t('metadata.howSaveWorksBody')}</p>
            <GuardNote guard={versionGuard(step.base)} etagHidden={hiddenFor(visibility, step.base).etag} />
          </details>
        ) : null}
        <LargeCopyStatus state={largeCopy} size={step.base.size} pending={save.isPending} error={save.error} />
        {save.isError && !isCancelled(save.error) ? <SaveFailure error={save.error} /> : null}
        <div className="meta-footer">
          <div className="meta-footer__buttons">
            {step.origin === 'edit' ? (
              <Button onClick={() => setStep({ name: 'edit' })} disabled={save.isPending}>
                {t('metadata.backToEdit')}
              </Button>
            ) : (
              <Button onClick={onClose} disabled={save.isPending}>
                {t('common.cancel')}
              </Button>
            )}
            <Button variant="primary" disabled={save.isPending || changes.length === 0 || reviewBlock !== null} onClick={() => save.mutate({ ref: objectRef, base: step.base, edits: step.edits, visibility, acknowledgedHiddenCustom: acknowledged, ...largeCopy.begin() })}>
              {save.isPending ? t('metadata.saving') : t('metadata.save')}
            </Button>
          </div>
        </div>
      </div>
    );
  }

  if (step.name === 'conflict') {
    const mine = applyMetadataEdits(step.base.metadata, step.edits);
    return (
      <div className="metadata-editor" data-testid="metadata-conflict">
        <Banner tone="danger" title={t('metadata.conflict.title')}>
          <p>{t(step.detectedBy === 'head' ? 'metadata.conflict.byHead' : step.detectedBy === 'verify' ? 'metadata.conflict.byVerify' : 'metadata.conflict.byPrecondition')}</p>
        </Banner>
        <MetadataDiff
          changes={diffMetadata(step.theirs.metadata, mine)}
          caption={t('metadata.conflict.versions')}
          beforeLabel={t('metadata.conflict.theirs')}
          afterLabel={t('metadata.conflict.yours')}
          testId="conflict-versions"
        />
        <MetadataDiff changes={diffMetadata(step.base.metadata, step.theirs.metadata)} caption={t('metadata.conflict.theirChanges')} testId="conflict-theirs" />
        <MetadataDiff changes={diffMetadata(step.base.metadata, mine)} caption={t('metadata.conflict.yourEdits')} testId="conflict-yours" />
        {step.theirs.etag !== step.base.etag ? <p>{t('metadata.conflict.contentChanged')}</p> : null}
        <ActionRow>
          <Button
            onClick={() => {
              // An explicit choice to drop my edits: nothing to ask.
              onDirty(false);
              closeNow();
            }}
          >
            {t('metadata.conflict.keepTheirs')}
          </Button>
          <Button onClick={() => setStep({ name: 'review', base: step.theirs, edits: editsBetween(step.theirs.metadata, mine), origin: 'overwrite' })}>
            {t('metadata.conflict.overwrite')}
          </Button>
          <Button variant="primary" onClick={() => setStep({ name: 'review', base: step.theirs, edits: step.edits, origin: 'reapply' })}>
            {t('metadata.conflict.reapply')}
          </Button>
        </ActionRow>
      </div>
    );
  }

  const { result } = step;
  return (
    <div className="metadata-editor">
      <SavedBanner saveId={saveId} objectRef={objectRef} visibility={visibility} />
      <MetadataDiff changes={changesFrom(result.before, result.after.metadata)} caption={t('metadata.diff.savedCaption')} />
      <ActionRow>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </ActionRow>
    </div>
  );
}
