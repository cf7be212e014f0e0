import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.tsx';

/**
 * A modal built on the native <dialog>: the browser provides the focus trap, Escape to close and the
 * inert background, so no hand-rolled focus management is needed.
 */
export function Dialog({ open, onClose, title, children }: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useI18n();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // React propagates a nested dialog's `close` through the component tree: only our own closes us.
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={(event) => {
      if (event.target === event.currentTarget) onClose();
    }}>
      <div className="dialog__header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button button--small" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
      <div className="dialog__body">{open ? children : null}</div>
    </dialog>
  );
}
