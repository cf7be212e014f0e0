import X from 'lucide-react/icons/x';
import { createContext, use, useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.tsx';

/**
 * What a Dialog needs to ask before closing while its content holds unsaved edits (made by
 * useUnsavedGuard in unsaved-guard.tsx, loaded only with the views that edit).
 */
export interface DialogGuard {
  dirty(): boolean;
  /** Close now if nothing is unsaved, else ask. */
  requestClose(): void;
  /** The question, while it is asked. */
  confirm: ReactNode;
}

const CloseContext = createContext<(() => void) | null>(null);

/** Inside a Dialog: closes it the way its Close button does (asking first when its guard has unsaved edits). */
export function useDialogClose(): (() => void) | null {
  return use(CloseContext);
}

const FIELD = 'input:not([type="hidden"], [disabled], [readonly]), select:not([disabled]), textarea:not([disabled], [readonly])';

/**
 * Where a dialog starts: on what it asks for (its first field, or the element marked `autofocus`), not on its
 * Close button, which the browser's own rule (the first focusable element) would pick.
 */
function firstField(dialog: HTMLDialogElement): HTMLElement | null {
  const body = dialog.querySelector('.dialog__body');
  return body?.querySelector<HTMLElement>('[autofocus]') ?? body?.querySelector<HTMLElement>(FIELD) ?? null;
}

/**
 * Focuses the dialog's first field; when its content is still loading (an editor reading the object first),
 * as soon as the field appears, unless the user has moved focus elsewhere in the dialog meanwhile.
 * Returns a cleanup that stops waiting.
 */
function focusFirstField(dialog: HTMLDialogElement): () => void {
  const now = firstField(dialog);
  if (now) {
    now.focus();
    return () => undefined;
  }
  const opening = dialog.ownerDocument.activeElement;
  const observer = new MutationObserver(() => {
    const target = firstField(dialog);
    if (!target) return;
    observer.disconnect();
    const active = dialog.ownerDocument.activeElement;
    if (active === opening || active === dialog || active?.classList.contains('dialog__close')) target.focus();
  });
  observer.observe(dialog, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/**
 * The title with its subject (a key, a bucket name) in a box of its own: the line breaks before the name
 * rather than at its hyphens or slashes, and inside it only when it is longer than the whole line.
 */
function withSubject(title: string, subject: string | undefined): ReactNode {
  const at = subject ? title.indexOf(subject) : -1;
  if (!subject || at === -1) return title;
  return (
    <>
      {title.slice(0, at)}
      <span className="dialog__subject" dir="auto">
        {subject}
      </span>
      {title.slice(at + subject.length)}
    </>
  );
}

/**
 * A modal built on the native <dialog>: the browser provides the focus trap, Escape to close and the
 * inert background, so no hand-rolled focus management is needed.
 */
export function Dialog({ open, onClose, title, subject, children, guard, wide = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The key or bucket name inside `title`: kept whole on its line, broken only when longer than one. */
  subject?: string;
  children: ReactNode;
  guard?: DialogGuard;
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
    if (!dialog) return undefined;
    let stop: (() => void) | undefined;
    if (open && !dialog.open) {
      dialog.showModal();
      stop = focusFirstField(dialog);
    }
    if (!open && dialog.open) dialog.close();
    return stop;
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
        <h2 id={titleId}>{withSubject(title, subject)}</h2>
        <button type="button" className="icon-button dialog__close" aria-label={t('common.close')} data-tip={t('common.close')} onClick={requestClose}>
          <X aria-hidden="true" size={18} />
        </button>
      </div>
      <div className="dialog__body">
        {guard?.confirm ?? null}
        <CloseContext value={requestClose}>{open ? children : null}</CloseContext>
      </div>
    </dialog>
  );
}
