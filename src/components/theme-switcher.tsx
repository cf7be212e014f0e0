import Monitor from 'lucide-react/icons/monitor';
import Moon from 'lucide-react/icons/moon';
import Sun from 'lucide-react/icons/sun';
import { useId, useState } from 'react';
import { useI18n } from '../i18n/i18n.tsx';
import { THEMES, applyTheme, loadTheme, storeTheme, type Theme } from '../lib/theme.ts';

const ICONS = { system: Monitor, light: Sun, dark: Moon } as const;

/** Three radio buttons drawn as a segmented control: arrows move between them, as for any radio group. */
export function ThemeSwitcher() {
  const { t } = useI18n();
  const name = useId();
  const [theme, setTheme] = useState<Theme>(loadTheme);
  const choose = (next: Theme) => {
    setTheme(next);
    storeTheme(next);
    applyTheme(next);
  };
  return (
    <fieldset className="segmented" aria-label={t('app.theme')}>
      {THEMES.map((value) => {
        const Icon = ICONS[value];
        return (
          <label key={value} className="segmented__option" title={t(`app.theme.${value}`)}>
            <input type="radio" name={name} value={value} checked={theme === value} onChange={() => choose(value)} />
            <Icon aria-hidden="true" size={16} />
            <span className="visually-hidden">{t(`app.theme.${value}`)}</span>
          </label>
        );
      })}
    </fieldset>
  );
}
