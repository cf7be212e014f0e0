import { describe, expect, it } from 'vitest';
import { ensureLocale, translate } from '../../../i18n/i18n.tsx';
import { formatEta, indicatorRate } from './rate-format.ts';

const en = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('en', key, params);
const zh = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate('zh-CN', key, params);

describe('the header indicator rate line', () => {
  it('says "—" until the speed meter has a measurement', () => {
    expect(indicatorRate({ speed: 0, eta: null }, en)).toBe('— /s · — left');
    expect(indicatorRate({ speed: 0, eta: 0 }, en)).toBe('— /s · — left');
    expect(indicatorRate({ speed: 1024, eta: null }, en)).toBe('— /s · — left');
  });

  it('shows speed and time left from the byte counters, in English and Chinese', async () => {
    await ensureLocale('zh-CN');
    expect(indicatorRate({ speed: 2 * 1024 * 1024, eta: 125 }, en)).toBe('2.0\u00A0MiB/s · 2 min 5 s left');
    expect(indicatorRate({ speed: 2 * 1024 * 1024, eta: 125 }, zh)).toBe('2.0\u00A0MiB/s · 剩余 2 分 5 秒');
    expect(indicatorRate({ speed: 0, eta: null }, zh)).toBe('— /s · 剩余 —');
    expect(formatEta(3 * 3600 + 120, en)).toBe('3 h 2 min');
  });
});
