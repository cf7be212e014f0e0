import { describe, expect, it } from 'vitest';
import { localDateText, parseLocalDateText } from './local-date-text.ts';

describe('parseLocalDateText', () => {
  it('reads year-first dates with an optional time, in local time', () => {
    expect(parseLocalDateText('2031-12-31 23:59:59')?.getTime()).toBe(new Date(2031, 11, 31, 23, 59, 59).getTime());
    expect(parseLocalDateText(' 2031-1-5 8:05 ')?.getTime()).toBe(new Date(2031, 0, 5, 8, 5, 0).getTime());
    expect(parseLocalDateText('2030-06-15T08:30:00')?.getTime()).toBe(new Date(2030, 5, 15, 8, 30, 0).getTime());
    expect(parseLocalDateText('2031-12-31')?.getTime()).toBe(new Date(2031, 11, 31).getTime());
  });

  it('refuses month-first dates, days a month lacks, impossible times and partial text', () => {
    for (const text of ['12/31/2031', '2031-02-30', '2031-13-01', '2031-12-31 24:00', '2031-12-31 23:60', '2031-12-3 2', '2031-12-31 23:5', '', 'tomorrow']) {
      expect({ text, date: parseLocalDateText(text) }).toEqual({ text, date: null });
    }
  });

  it('writes back what it reads', () => {
    const date = new Date(2031, 11, 31, 23, 59, 59);
    expect(localDateText(date)).toBe('2031-12-31 23:59:59');
    expect(parseLocalDateText(localDateText(date))?.getTime()).toBe(date.getTime());
  });
});
