import { useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import type { DemoDataControls } from './demo-data-dialog.tsx';
import { lazyView } from './lazy-view.tsx';

// Opened rarely: the dialog and its reset code load on the first click, not with the shell.
const DemoDataDialog = lazyView(async () => (await import('./demo-data-dialog.tsx')).DemoDataDialog, { fallback: 'none' });

/**
 * The demo-mode badge of the top bar. It opens a short dialog: where the demo data lives (this browser) and
 * "Reset demo data", which asks first, forgets every change and reloads the page with the original seed.
 */
export function DemoBadge({ controls }: { controls: DemoDataControls }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  // Kept mounted once opened, so that closing goes through <dialog>.close() and focus returns to the badge.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        className="badge badge--button"
        title={t('demoData.open')}
        aria-haspopup="dialog"
        data-testid="demo-badge"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        {t('app.demoBadge')}
      </button>
      {opened ? <DemoDataDialog open={open} onClose={() => setOpen(false)} controls={controls} /> : null}
    </>
  );
}
