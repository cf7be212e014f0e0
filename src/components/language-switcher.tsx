import { useId } from 'react';
import { LOCALES, isLocale, useI18n } from '../i18n/i18n.tsx';

export function LanguageSwitcher() {
  const { locale, setLocale, t } = useI18n();
  const id = useId();
  return (
    <span className="language-switcher">
      <label htmlFor={id}>{t('app.language')}</label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) setLocale(event.target.value);
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`lang.${l}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
