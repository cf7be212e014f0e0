import { createContext, use, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { useNavigationBlocker, type NavigationBlocker } from '../lib/router.tsx';

/**
 * What a dialog with unsaved edits needs: whether there are any, and what closing (or leaving) does.
 * Made by useUnsavedGuard; a Dialog given one asks before Esc, its Close button, a Cancel inside it
 * (useDialogClose), back/forward or in-app navigation, and warns before a reload.
 */
export interface UnsavedGuard {
  setDirty(dirty: boolean): void;
  /** Close now if nothing is unsaved, else ask. */
  requestClose(): void;
  asking: boolean;
  ask(proceed: () => void): void;
  discard(): void;
  keep(): void;
  dirty(): boolean;
}

/** The guard of a dialog whose content may hold unsaved edits; `onClose` closes the dialog. */
export function useUnsavedGuard(onClose: () => void): UnsavedGuard {
  const dirtyRef = useRef(false);
  const [dirty, setDirtyState] = useState(false);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  const setDirty = useCallback((value: boolean) => {
    dirtyRef.current = value;
    setDirtyState(value);
  }, []);
  const ask = useCallback((proceed: () => void) => setPending(() => proceed), []);
  const blocker = useMemo<NavigationBlocker>(() => ({ blocks: () => dirtyRef.current, ask }), [ask]);
  useNavigationBlocker(blocker);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return {
    setDirty,
    dirty: () => dirtyRef.current,
    asking: pending !== null,
    ask,
    requestClose: () => {
      if (dirtyRef.current) ask(() => closeRef.current());
      else closeRef.current();
    },
    discard: () => {
      const proceed = pending;
      setPending(null);
      setDirty(false);
      proceed?.();
    },
    keep: () => setPending(null),
  };
}

const CloseContext = createContext<(() => void) | null>(null);

/** Inside a Dialog: closes it the way its Close button does (asking first when its guard has unsaved edits). */
export function useDialogClose(): (() => void) | null {
  return use(CloseContext);
}

/**
 * A modal built on the native <dialog>: the browser provides the focus trap, Escape to close and the
 * inert background, so no hand-rolled focus management is needed.
 */
export function Dialog({ open, onClose, title, children, guard, wide = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  guard?: UnsavedGuard;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useI18n();
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const requestClose = guard ? guard.requestClose : onClose;

  return (
    // React propagates a nested dialog's `close` through the component tree: only our own closes us.
    <dialog
      ref={ref}
      className={`dialog${wide ? ' dialog--wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (event.target !== event.currentTarget || !guard?.dirty()) return;
        event.preventDefault();
        guard.requestClose();
      }}
      onClose={(event) => {
        if (event.target !== event.currentTarget) return;
        // The browser may close a dialog without a cancelable `cancel` (a second Esc with no user activation
        // in between): with unsaved edits it is shown again and asks.
        if (guard?.dirty() && openRef.current) {
          event.currentTarget.showModal();
          guard.requestClose();
          return;
        }
        onClose();
      }}
    >
      <div className="dialog__header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button button--small" onClick={requestClose}>
          {t('common.close')}
        </button>
      </div>
      <div className="dialog__body">
        {guard?.asking ? <UnsavedConfirm guard={guard} /> : null}
        <CloseContext value={requestClose}>{open ? children : null}</CloseContext>
      </div>
    </dialog>
  );
}

function UnsavedConfirm({ guard }: { guard: UnsavedGuard }) {
  const { t } = useI18n();
  const headingId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <section className="unsaved-confirm" role="alertdialog" aria-modal="false" aria-labelledby={headingId} data-testid="unsaved-confirm">
      <h3 id={headingId}>{t('metadata.form.unsavedTitle')}</h3>
      <p>{t('metadata.form.unsavedBody')}</p>
      <div className="notice__actions">
        <button type="button" className="button" onClick={guard.discard}>
          {t('metadata.form.discard')}
        </button>
        <button ref={keepRef} type="button" className="button button--primary" onClick={guard.keep}>
          {t('metadata.form.keepEditing')}
        </button>
      </div>
    </section>
  );
}
