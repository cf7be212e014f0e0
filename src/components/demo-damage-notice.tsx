import { useEffect, useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { visibleText } from '../lib/visible-text.ts';

/** How many names of left-out records the notice lists before "…". */
const NAMES_SHOWN = 3;

/**
 * Demo mode: saved demo records that were damaged were left out at this start (each is gone; everything else
 * this browser kept was loaded, mocks/store/idb.ts). Says so once, until closed; nothing when nothing was.
 */
export function DemoDamageNotice({ damaged }: { damaged: () => Promise<readonly string[]> }) {
  const { t, tp } = useI18n();
  const [names, setNames] = useState<readonly string[]>([]);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    let live = true;
    // The demo backend is loaded in demo mode (main.tsx started it): no download here.
    damaged().then(
      (left) => {
        if (live) setNames(left);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [damaged]);
  if (closed || names.length === 0) return null;
  const listed = names.slice(0, NAMES_SHOWN).map(visibleText).join(', ') + (names.length > NAMES_SHOWN ? ', …' : '');
  return (
    <div className="notice notice--warn demo-damage" role="alert" data-testid="demo-damage">
      <p dir="auto">{tp('demoData.damaged', names.length, { names: listed })}</p>
      <button type="button" className="button button--small" onClick={() => setClosed(true)}>
        {t('common.close')}
      </button>
    </div>
  );
}
