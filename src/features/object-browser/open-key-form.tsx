import { useId, useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';

/** Where an anonymous visitor may not list the bucket: opens one object by its key. */
export function OpenKeyForm({ onOpen }: { onOpen: (key: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [key, setKey] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (key !== '') onOpen(key);
  };
  return (
    <form className="notice" onSubmit={onSubmit}>
      <p>{t('browser.anonymousList')}</p>
      <div className="inline-form__fields">
        <label htmlFor={id}>{t('browser.openKey')}</label>
        <input id={id} value={key} onChange={(e) => setKey(e.target.value)} dir="auto" spellCheck={false} />
        <button type="submit" className="button">
          {t('browser.openKeySubmit')}
        </button>
      </div>
    </form>
  );
}
