import Search from 'lucide-react/icons/search';
import { useId, useRef } from 'react';
import { usePhoneWidth } from '../../hooks/use-phone-width.ts';
import { useUrlDraft } from '../../hooks/use-url-draft.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { useSlashFocus } from './use-slash-focus.ts';

/** The listing's filter: a key prefix typed here goes to the URL (Enter at once, else after a pause); "/" focuses it. */
export function FilterBox({ filter, onChange }: { filter: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const hintId = useId();
  const ref = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useUrlDraft(filter, onChange);
  useSlashFocus(ref);
  // A phone's field is a third of the line: its placeholder is the short form, the label keeps the long one.
  const phone = usePhoneWidth();

  return (
    <search className="filter">
      <label htmlFor={id} className="visually-hidden">
        {t('browser.filter')}
      </label>
      <Search aria-hidden="true" size={16} className="filter__icon" />
      <input
        ref={ref}
        id={id}
        type="search"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onChange(draft);
        }}
        aria-describedby={hintId}
        autoComplete="off"
        spellCheck={false}
        dir="auto"
        placeholder={t(phone ? 'browser.filterShort' : 'browser.filter')}
      />
      <kbd className="filter__key" aria-hidden="true" title={t('browser.filterHint')}>
        /
      </kbd>
      <span id={hintId} className="visually-hidden">
        {t('browser.filterHint')}
      </span>
    </search>
  );
}
