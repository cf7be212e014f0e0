import CalendarDays from 'lucide-react/icons/calendar-days';
import { useRef, useState } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';
import { IconButton } from '../ui/icon-button.tsx';
import { httpDateFromLocalInput } from './standard-values.ts';
import { localDateText, parseLocalDateText } from './local-date-text.ts';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/metadata.ts';

/**
 * Picks the Expires date in the console's language, not the browser's: a browser's own date field draws
 * its placeholder and order from the browser's locale (mm/dd/yyyy in a Chinese console on an English
 * browser), so the date is typed year first (`2031-12-31 23:59`, the order both languages read), with a
 * placeholder from the catalogs. The calendar button opens the browser's calendar on a hidden date field
 * whose choice is written back as text. Each complete date typed or picked becomes the HTTP date (`onPick`).
 */
export function ExpiresPicker({ onPick }: { onPick: (date: Date) => void }) {
  const { t, locale } = useI18n();
  const [text, setText] = useState('');
  const calendar = useRef<HTMLInputElement>(null);
  const invalid = text.trim() !== '' && parseLocalDateText(text) === null;
  return (
    <span className="expires-picker">
      <input
        type="text"
        lang={locale}
        inputMode="numeric"
        className="expires-picker__text mono"
        aria-label={t('metadata.pickExpires')}
        placeholder={t('metadata.expiresFormat')}
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={invalid ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const date = parseLocalDateText(e.target.value);
          if (date) onPick(date);
        }}
      />
      <IconButton
        label={t('metadata.openCalendar')}
        icon={<CalendarDays size={16} aria-hidden="true" />}
        bordered
        tipSide="end"
        onClick={() => {
          try {
            calendar.current?.showPicker();
          } catch {
            calendar.current?.focus();
          }
        }}
      />
      <input
        ref={calendar}
        type="datetime-local"
        step={1}
        className="expires-picker__calendar"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const date = httpDateFromLocalInput(e.target.value);
          if (!date) return;
          setText(localDateText(date));
          onPick(date);
        }}
      />
    </span>
  );
}
