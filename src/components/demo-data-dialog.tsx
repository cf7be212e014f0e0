import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { Dialog } from './dialog.tsx';

/** What the dialog asks of the running demo backend (src/app/demo-backend.ts gives it). */
export interface DemoDataControls {
  /** Where the demo keeps its data: this browser (IndexedDB) or this page's memory only. */
  storage(): Promise<'browser' | 'memory'>;
  /** Forgets every change kept in this browser; the page reloads afterwards. */
  reset(): Promise<void>;
}

/** What the demo keeps and where, and "Reset demo data" (asks first, then reloads with the seed). */
export function DemoDataDialog({ open, onClose, controls }: { open: boolean; onClose: () => void; controls: DemoDataControls }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onClose={onClose} title={t('demoData.title')}>
      <DemoDataPanel onCancel={onClose} controls={controls} />
    </Dialog>
  );
}

type Step = { kind: 'info' } | { kind: 'confirm' } | { kind: 'resetting' } | { kind: 'failed'; message: string };

function DemoDataPanel({ onCancel, controls }: { onCancel: () => void; controls: DemoDataControls }) {
  const { t } = useI18n();
  const [step, setStep] = useState<Step>({ kind: 'info' });
  // Known once the demo backend answers (it already runs: this dialog exists in demo mode only).
  const [storage, setStorage] = useState<'browser' | 'memory' | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void controls.storage().then((where) => {
      if (live) setStorage(where);
    });
    return () => {
      live = false;
    };
  }, [controls]);

  async function reset(): Promise<void> {
    setStep({ kind: 'resetting' });
    try {
      // The backend's module is already loaded in demo mode (main.tsx started it): no download here.
      await controls.reset();
      window.location.reload();
    } catch (error) {
      setStep({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  if (step.kind === 'info') {
    return (
      <div>
        <p>{t('app.demoBadgeHint')}</p>
        {storage === undefined ? null : <p>{storage === 'browser' ? t('demoData.kept') : t('demoData.memoryOnly')}</p>}
        <div className="dialog__actions">
          <button type="button" className="button button--danger" onClick={() => setStep({ kind: 'confirm' })}>
            {t('demoData.reset')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div>
      <p>{t('demoData.confirm')}</p>
      {step.kind === 'failed' ? (
        <p className="notice notice--error" role="alert">
          {t('demoData.failed', { message: step.message })}
        </p>
      ) : null}
      <div className="dialog__actions">
        <button type="button" className="button" autoFocus disabled={step.kind === 'resetting'} onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button--danger" disabled={step.kind === 'resetting'} onClick={() => void reset()}>
          {step.kind === 'resetting' ? t('demoData.resetting') : t('demoData.confirmButton')}
        </button>
      </div>
    </div>
  );
}
