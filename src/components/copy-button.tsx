import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/i18n.tsx';

/** Copies through the async clipboard API, falling back to a hidden textarea for older/insecure contexts. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission denied or not a secure context: try the legacy path below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

type CopyState = 'idle' | 'copied' | 'failed';

/** A copy button (with an optional icon and tooltip) and a status that screen readers hear ("Copied"). */
export function CopyButton({ text, label, className, icon, title }: { text: string; label?: string; className?: string; icon?: ReactNode; title?: string | undefined }) {
  const { t } = useI18n();
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = async () => {
    const ok = await copyText(text);
    setState(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 2000);
  };

  const name = label ?? t('common.copy');
  return (
    <span className="copy">
      <button type="button" className={className ?? 'button button--small'} onClick={() => void onClick()} title={title}>
        {icon}
        {name}
      </button>
      <output className="copy__status">
        {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : ''}
      </output>
    </span>
  );
}
