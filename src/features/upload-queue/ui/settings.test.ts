import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY, loadSettings, partSizeBytes, saveSettings, uploadSettingsSchema } from './settings.ts';

function storage(initial?: string) {
  const map = new Map<string, string>();
  if (initial !== undefined) map.set(SETTINGS_STORAGE_KEY, initial);
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('upload settings', () => {
  it('defaults to 20 MB threshold, 8 MiB parts, 3 files and 4 parts at once', () => {
    expect(loadSettings(storage())).toEqual({ thresholdMb: 20, partSizeMib: 8, concurrency: 3, partConcurrency: 4 });
  });

  it('round-trips what the user saved', () => {
    const s = storage();
    saveSettings({ thresholdMb: 50, partSizeMib: 16, concurrency: 2, partConcurrency: 8 }, s);
    expect(loadSettings(s)).toEqual({ thresholdMb: 50, partSizeMib: 16, concurrency: 2, partConcurrency: 8 });
    expect(partSizeBytes(loadSettings(s))).toBe(16 * 1024 * 1024);
  });

  it('keeps the values of settings saved before a field existed and gives the new field its default', () => {
    expect(loadSettings(storage(JSON.stringify({ thresholdMb: 50, partSizeMib: 16, concurrency: 2 })))).toEqual({
      thresholdMb: 50,
      partSizeMib: 16,
      concurrency: 2,
      partConcurrency: 4,
    });
  });

  it('falls back to the defaults for a corrupt or out-of-range stored value', () => {
    expect(loadSettings(storage('{not json'))).toEqual(DEFAULT_SETTINGS);
    expect(loadSettings(storage('"text"'))).toEqual(DEFAULT_SETTINGS);
    expect(loadSettings(storage(JSON.stringify({ ...DEFAULT_SETTINGS, partSizeMib: 2 })))).toEqual(DEFAULT_SETTINGS);
  });

  it.each([
    ['partSizeMib', 3, false],
    ['partSizeMib', 4, true],
    ['partSizeMib', 5120, true],
    ['partSizeMib', 5121, false],
    ['concurrency', 0, false],
    ['concurrency', 8, true],
    ['concurrency', 9, false],
    ['partConcurrency', 0, false],
    ['partConcurrency', 1, true],
    ['partConcurrency', 16, true],
    ['partConcurrency', 17, false],
    ['partConcurrency', 2.5, false],
  ] as const)('%s = %s is accepted: %s', (field, value, ok) => {
    expect(uploadSettingsSchema.safeParse({ ...DEFAULT_SETTINGS, [field]: value }).success).toBe(ok);
  });
});
