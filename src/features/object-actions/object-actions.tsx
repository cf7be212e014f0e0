import { useId, useState } from 'react';
import { Dialog } from '../../components/dialog.tsx';
import { useUnsavedGuard } from '../../components/unsaved-guard.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import type { ObjectActionsProps } from './action-props.ts';
import { CopyForm } from './copy-form.tsx';
import { DeleteForm } from './delete-form.tsx';
import { MoveForm } from './move-form.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './object-actions.css';

type Open = 'copy' | 'move' | 'delete' | null;

/** Copy, move/rename and delete for the object open in the details panel. */
export function ObjectActions(props: ObjectActionsProps) {
  const { t } = useI18n();
  const headingId = useId();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  // Copy asks before Esc, Close or Cancel throws away a typed destination or REPLACE metadata edits.
  const guard = useUnsavedGuard(close);
  return (
    <section className="details__section" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('actions.title')}</h3>
      <div className="inline-form__fields">
        <button type="button" className="button" onClick={() => setOpen('copy')}>
          {t('actions.copy')}
        </button>
        <button type="button" className="button" onClick={() => setOpen('move')}>
          {t('actions.move')}
        </button>
        <button type="button" className="button button--danger" onClick={() => setOpen('delete')}>
          {t('actions.delete')}
        </button>
      </div>
      <Dialog open={open === 'copy'} onClose={close} title={t('actions.copyTitle', { key: props.objectKey })} subject={props.objectKey} guard={guard}>
        <CopyForm {...props} onDone={close} onDirty={guard.setDirty} />
      </Dialog>
      <Dialog open={open === 'move'} onClose={close} title={t('actions.moveTitle', { key: props.objectKey })} subject={props.objectKey} guard={guard}>
        <MoveForm {...props} onDone={close} onDirty={guard.setDirty} />
      </Dialog>
      <Dialog open={open === 'delete'} onClose={close} title={t('actions.deleteTitle', { key: props.objectKey })} subject={props.objectKey}>
        <DeleteForm {...props} onCancel={close} />
      </Dialog>
    </section>
  );
}
