import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { useNavigationBlocker, type NavigationBlocker } from '../lib/router.tsx';
import type { DialogGuard } from './dialog.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../i18n/parts/metadata.ts';

/**
 * What a dialog with unsaved edits needs: whether there are any, and what closing (or leaving) does.
 * Made by useUnsavedGuard; a Dialog given one asks before Esc, its Close button, a Cancel inside it
 * (useDialogClose), back/forward or in-app navigation, and warns before a reload.
 */
/** The question's words when closing would stop work under way rather than drop typed edits. */
export interface GuardWording {
  title: string;
  body: string;
  /** The button that closes anyway. */
  discard: string;
  /** The button that stays. */
  keep: string;
}

export interface UnsavedGuard extends DialogGuard {
  /** `wording`: what the question says while this holds (default: the unsaved-edits question). */
  setDirty(dirty: boolean, wording?: GuardWording): void;
  /** Close now if nothing is unsaved, else ask. */
  requestClose(): void;
  asking: boolean;
  ask(proceed: () => void): void;
  discard(): void;
  keep(): void;
  dirty(): boolean;
}

/**
 * The guard of a dialog whose content may hold unsaved edits; `onClose` closes the dialog. `closeOnLeave`: when
 * the user lets a back/forward or in-app navigation happen, the dialog closes too (for a dialog whose open
 * state is not in the URL, which would otherwise stay open over the next page with its work still running).
 */
export function useUnsavedGuard(onClose: () => void, { closeOnLeave = false }: { closeOnLeave?: boolean } = {}): UnsavedGuard {
  const dirtyRef = useRef(false);
  // The question's words follow the work under way while it is open (a preview that became a run says so).
  const [wording, setWording] = useState<GuardWording | undefined>(undefined);
  const [pending, setPending] = useState<{ proceed: () => void } | null>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  const setDirty = useCallback((value: boolean, words?: GuardWording) => {
    dirtyRef.current = value;
    setWording(value ? words : undefined);
    // Nothing is at stake any more (the run finished, the edits were saved): the question has no object.
    if (!value) setPending(null);
  }, []);
  const ask = useCallback((proceed: () => void) => setPending({ proceed }), []);
  const blocker = useMemo<NavigationBlocker>(
    () => ({
      blocks: () => dirtyRef.current,
      ask: closeOnLeave
        ? (proceed: () => void) =>
            ask(() => {
              closeRef.current();
              proceed();
            })
        : ask,
    }),
    [ask, closeOnLeave],
  );
  useNavigationBlocker(blocker);
  // Installed for as long as the guard lives and decided by the ref, so it holds from the moment the
  // edits are reported, not one effect later.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const discard = () => {
    const proceed = pending?.proceed;
    setPending(null);
    setDirty(false);
    proceed?.();
  };
  const keep = () => setPending(null);
  return {
    confirm: pending ? <UnsavedConfirm wording={wording} onDiscard={discard} onKeep={keep} /> : null,
    setDirty,
    dirty: () => dirtyRef.current,
    asking: pending !== null,
    ask,
    requestClose: () => {
      if (dirtyRef.current) ask(() => closeRef.current());
      else closeRef.current();
    },
    discard,
    keep,
  };
}

function UnsavedConfirm({ wording, onDiscard, onKeep }: { wording: GuardWording | undefined; onDiscard: () => void; onKeep: () => void }) {
  const { t } = useI18n();
  const words = wording ?? { title: t('metadata.form.unsavedTitle'), body: t('metadata.form.unsavedBody'), discard: t('metadata.form.discard'), keep: t('metadata.form.keepEditing') };
  const headingId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <section className="unsaved-confirm" role="alertdialog" aria-modal="false" aria-labelledby={headingId} data-testid="unsaved-confirm">
      <h3 id={headingId}>{words.title}</h3>
      <p>{words.body}</p>
      <div className="notice__actions">
        <button type="button" className="button" onClick={onDiscard}>
          {words.discard}
        </button>
        <button ref={keepRef} type="button" className="button button--primary" onClick={onKeep}>
          {words.keep}
        </button>
      </div>
    </section>
  );
}
