import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { Dialog } from './dialog.tsx';

/** What the demo keeps and where, and "Reset demo data" (asks first, then reloads with the seed). */
export function DemoDataDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onClose={onClose} title={t('demoData.title')}>
      <DemoDataPanel onCancel={onClose} />
    </Dialog>
  );
}

type Step = { kind: 'info' } | { kind: 'confirm' } | { kind: 'resetting' } | { kind: 'failed'; message: string };

function DemoDataPanel({ onCancel }: { onCancel: () => void }) {
  const { t } = useI18n();
  const [step, setStep] = useState<Step>({ kind: 'info' });
  // Known once the demo backend answers (it already runs: this dialog exists in demo mode only).
  const [storage, setStorage] = useState<'browser' | 'memory' | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void import('../../mocks/browser.ts')
      .then(({ demoStorage }) => demoStorage())
      .then((where) => {
        if (live) setStorage(where);
      });
    return () => {
      live = false;
    };
  }, []);

  async function reset(): Promise<void> {
    setStep({ kind: 'resetting' });
    try {
      // Already loaded in demo mode (main.tsx started the demo backend from it): no download here.
      const { resetDemoData } = await import('../../mocks/browser.ts');
      await resetDemoData();
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
        <button type="button" className="button button--danger" disabled={step.kind === 'resetting'} onClick={() => void reset()}>
          {step.kind === 'resetting' ? t('demoData.resetting') : t('demoData.confirmButton')}
        </button>
        <button type="button" className="button" autoFocus disabled={step.kind === 'resetting'} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </div>
  );
}
