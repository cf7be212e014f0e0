import { useEffect, useState, useSyncExternalStore } from 'react';
import { useI18n } from '../i18n/i18n.tsx';

/**
 * Toasts: short notes that an action finished ("3 objects deleted"). A request id is shown only on a failure
 * (it is what support asks for); a success says what was done, in words. Written here rather than taken from a library because the announcing region has to be
 * in the page before the first toast (a live region added together with its text is not read out), which
 * puts it in the entry chunk: this is about 0.7 KiB gzip, sonner about 10 KiB.
 *
 * A toast never asks anything (confirmations are dialogs); it may offer one action that reverses what it
 * reports (Undo). It stays 8 s, 15 s with an action (longer while the pointer or focus is on it, or while a
 * modal dialog covers it) and can be closed. Text is rendered as text only.
 */
export interface Toast {
  id: number;
  message: string;
  requestId?: string | undefined;
  tone: 'success' | 'error';
  action?: ToastAction | undefined;
}

export interface ToastAction {
  label: string;
  /** Runs once; the toast closes when it is pressed. */
  run: () => void;
}

const SHOWN_MS = 8000;
const SHOWN_WITH_ACTION_MS = 15000;
const MAX_SHOWN = 4;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]) {
  toasts = next;
  for (const listener of [...listeners]) listener();
}

/** Shows a toast; returns its id. */
export function toast(message: string, options: { requestId?: string | undefined; tone?: Toast['tone']; action?: ToastAction } = {}): number {
  const id = nextId++;
  emit([...toasts, { id, message, requestId: options.requestId || undefined, tone: options.tone ?? 'success', action: options.action }].slice(-MAX_SHOWN));
  return id;
}

export function dismissToast(id: number) {
  emit(toasts.filter((t) => t.id !== id));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Rendered once by the shell: the live region is always there, empty while nothing happened. */
export function Toaster() {
  const { t } = useI18n();
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <section className="toaster" aria-label={t('toast.region')}>
      <output className="toaster__list">
        {shown.map((item) => (
          <ToastItem key={item.id} item={item} />
        ))}
      </output>
    </section>
  );
}

function ToastItem({ item }: { item: Toast }) {
  const { t } = useI18n();
  const [held, setHeld] = useState({ pointer: false, focus: false });
  const paused = held.pointer || held.focus;
  useEffect(() => {
    if (paused) return;
    // A modal dialog covers the toasts (it is in the top layer): they wait until it is closed.
    let timer = 0;
    const expire = () => {
      if (document.querySelector('dialog:modal')) timer = window.setTimeout(expire, 1000);
      else dismissToast(item.id);
    };
    timer = window.setTimeout(expire, item.action ? SHOWN_WITH_ACTION_MS : SHOWN_MS);
    return () => clearTimeout(timer);
  }, [item.id, item.action, paused]);
  const hold = {
    onPointerEnter: () => setHeld((h) => ({ ...h, pointer: true })),
    onPointerLeave: () => setHeld((h) => ({ ...h, pointer: false })),
    onFocus: () => setHeld((h) => ({ ...h, focus: true })),
    onBlur: () => setHeld((h) => ({ ...h, focus: false })),
  };
  return (
    <div className={`toast toast--${item.tone}`} data-testid="toast" {...hold}>
      <p className="toast__message" dir="auto">
        {item.message}
      </p>
      {item.requestId && item.tone === 'error' ? (
        <p className="toast__request">
          {t('error.requestId')}: <code>{item.requestId}</code>
        </p>
      ) : null}
      {item.action ? (
        <button
          type="button"
          className="button button--small toast__action"
          onClick={() => {
            dismissToast(item.id);
            item.action?.run();
          }}
        >
          {item.action.label}
        </button>
      ) : null}
      <button type="button" className="icon-button toast__close" aria-label={t('common.close')} data-tip={t('common.close')} data-tip-side="above" onClick={() => dismissToast(item.id)}>
        ×
      </button>
    </div>
  );
}
