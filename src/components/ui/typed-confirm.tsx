import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/ui.ts';
import { ActionRow, Button } from './button.tsx';

/**
 * The body of a dialog that asks before an irreversible or exposing action (delete a bucket, make it public):
 * what will happen, then the exact word to type (`phrase`, e.g. the bucket's name). The confirming button
 * stays disabled until the typed text equals it; a near miss is never accepted.
 */
export function TypedConfirm({ consequence, phrase, confirmLabel, onConfirm, onCancel, busy = false, tone = 'danger', children, autoFocus = true }: {
  consequence: ReactNode;
  phrase: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  tone?: 'danger' | 'primary';
  children?: ReactNode;
  /** Starts on the input (the default, in a dialog). */
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  const [typed, setTyped] = useState('');
  const id = useId();
  const matches = typed === phrase;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (matches && !busy) onConfirm();
  };
  return (
    <form className="typed-confirm" onSubmit={submit} noValidate>
      <div className="typed-confirm__consequence">{consequence}</div>
      {children}
      <label className="field__label" htmlFor={id}>
        {t('ui.typedConfirm.label', { phrase })}
      </label>
      <input
        id={id}
        className="typed-confirm__input mono"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        autoFocus={autoFocus}
      />
      <ActionRow>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="submit" variant={tone} disabled={!matches || busy}>
          {confirmLabel}
        </Button>
      </ActionRow>
    </form>
  );
}
