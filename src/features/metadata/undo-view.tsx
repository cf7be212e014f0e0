import { useQueryClient } from '@tanstack/react-query';
import type { ObjectRef } from '../../api/client.ts';
import type { HeaderVisibility } from '../../api/cors/visibility.ts';
import { diffMetadata } from '../../api/metadata/edit.ts';
import { metadataSaveSettled } from '../../api/metadata/queries.ts';
import { dismissToast, toast } from '../../components/toast.tsx';
import { Banner } from '../../components/ui/banner.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Status } from '../../components/ui/status.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useHeaderVisibility } from '../../hooks/use-header-visibility.ts';
import { useClient } from '../../hooks/use-client.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { visibleText } from '../../lib/visible-text.ts';
import { useLastSave } from './last-save.ts';
import { MetadataDiff } from './metadata-diff.tsx';
import { undoLastSave, useUndoState, type UndoState } from './undo.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

/** The toast that reported each object's last save (it offers Undo): gone once that save is undone. */
const savedToasts = new Map<string, number>();

/** The name an object goes by in a toast: the last part of its key, hidden characters shown. */
function objectName(key: string): string {
  const parts = key.split('/').filter(Boolean);
  return visibleText(parts.at(-1) ?? key);
}

/**
 * Starts an undo of the object's last save and reports it in a toast ("Restored …", or why not), so an undo
 * started from a toast or a panel that has since closed still tells its outcome.
 */
export function useUndo(saveId: string, ref: ObjectRef, visibility: HeaderVisibility): () => Promise<void> {
  const { t } = useI18n();
  const client = useClient();
  const queryClient = useQueryClient();
  return async () => {
    const shown = savedToasts.get(saveId);
    if (shown !== undefined) dismissToast(shown);
    savedToasts.delete(saveId);
    const outcome = await undoLastSave({ client, saveId, ref, visibility, refresh: (result) => metadataSaveSettled(queryClient, client, ref, result) });
    if (!outcome) return;
    if (outcome.kind === 'restored') toast(t('metadata.toast.restored', { name: objectName(ref.key) }));
    else toast(t(outcome.kind === 'conflict' ? 'metadata.undoConflict' : 'metadata.toast.undoFailed', { name: objectName(ref.key) }), { tone: 'error' });
  };
}

/** After a save: a toast saying so, with Undo, that stays after the editor closes. */
export function useSavedToast(saveId: string, ref: ObjectRef, visibility: HeaderVisibility): () => void {
  const { t } = useI18n();
  const undo = useUndo(saveId, ref, visibility);
  return () => {
    const previous = savedToasts.get(saveId);
    if (previous !== undefined) dismissToast(previous);
    const id = toast(t('metadata.toast.saved', { name: objectName(ref.key) }), { action: { label: t('metadata.undoShort'), run: () => void undo() } });
    savedToasts.set(saveId, id);
  };
}

/** What an undo came to, in words (Restored), or the conflict with the other client's version. */
function UndoOutcome({ state }: { state: UndoState | undefined }) {
  const { t } = useI18n();
  if (state?.kind === 'restored') {
    return (
      <output className="metadata-undo__state" data-testid="undo-state">
        <Status tone="ok">{t('metadata.restored')}</Status>
      </output>
    );
  }
  if (state?.kind === 'conflict') {
    return (
      <Banner tone="danger" title={t('metadata.undoConflict')}>
        <MetadataDiff changes={diffMetadata(state.last.after.metadata, state.theirs.metadata)} caption={t('metadata.conflict.theirChanges')} testId="undo-conflict-diff" />
      </Banner>
    );
  }
  if (state?.kind === 'failed') return <ErrorNotice error={state.error} />;
  return null;
}

/**
 * The object's own history in the details panel: "Undo last save" while its last save can be undone,
 * then what the undo came to.
 */
export function UndoLastSave({ saveId, objectRef }: { saveId: string; objectRef: ObjectRef }) {
  const { t } = useI18n();
  const client = useClient();
  const last = useLastSave(saveId);
  const state = useUndoState(saveId);
  const visibility = useHeaderVisibility(objectRef.zone ?? client.connection.defaultZone, objectRef.bucket);
  const undo = useUndo(saveId, objectRef, visibility);
  const running = state?.kind === 'running';
  return (
    <div className="metadata-undo">
      {last ? (
        <Button onClick={() => void undo()} disabled={running || visibility.kind === 'checking'}>
          {running ? t('metadata.undoing') : t('metadata.undo')}
        </Button>
      ) : null}
      <UndoOutcome state={state} />
    </div>
  );
}

/**
 * The end of a save in the editor: "Saved" with Undo beside it, and once undone "Restored" (never "Saved"
 * above metadata that is no longer there).
 */
export function SavedBanner({ saveId, objectRef, visibility }: { saveId: string; objectRef: ObjectRef; visibility: HeaderVisibility }) {
  const { t } = useI18n();
  const last = useLastSave(saveId);
  const state = useUndoState(saveId);
  const undo = useUndo(saveId, objectRef, visibility);
  const running = state?.kind === 'running';
  if (state?.kind === 'restored') {
    return (
      <Banner tone="info" title={t('metadata.restored')}>
        <p>{t('metadata.restoredBody')}</p>
      </Banner>
    );
  }
  return (
    <>
      <Banner
        tone="ok"
        title={t('metadata.saved')}
        actions={
          last ? (
            <Button onClick={() => void undo()} disabled={running}>
              {running ? t('metadata.undoing') : t('metadata.undoShort')}
            </Button>
          ) : null
        }
      >
        <p>{t('metadata.savedBody')}</p>
      </Banner>
      {state?.kind === 'running' ? null : <UndoOutcome state={state} />}
    </>
  );
}
