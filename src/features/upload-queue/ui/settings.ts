import { z } from 'zod';
import { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, MAX_PART_SIZE, MIN_PART_SIZE } from '../engine/index.ts';

/**
 * Transfer settings of the upload panel, remembered per browser. Sizes are entered in MB (threshold,
 * decimal as the DOCS' "20 MB") and MiB (part size, binary as the 4 MiB minimum we honour, ref §8).
 */
const MiB = 1024 * 1024;
export const MAX_PART_SIZE_MIB = MAX_PART_SIZE / MiB;
export const MAX_CONCURRENCY = 8;
export const MAX_PART_CONCURRENCY = 16;

export const uploadSettingsSchema = z.object({
  /** Files of this many MB (10^6 bytes) or more go multipart. */
  thresholdMb: z.coerce.number<string | number>().min(1).max(5_000_000),
  /** Multipart part size in MiB: at least the 4 MiB QingStor minimum (ref §8), at most 5 GiB. */
  partSizeMib: z.coerce.number<string | number>().int().min(MIN_PART_SIZE / MiB).max(MAX_PART_SIZE_MIB),
  /** Files transferring at once. */
  concurrency: z.coerce.number<string | number>().int().min(1).max(MAX_CONCURRENCY),
  /** Parts of one multipart file in flight at once. */
  partConcurrency: z.coerce.number<string | number>().int().min(1).max(MAX_PART_CONCURRENCY),
});
export type UploadSettings = z.output<typeof uploadSettingsSchema>;

export const DEFAULT_SETTINGS: UploadSettings = {
  thresholdMb: DEFAULT_MULTIPART_THRESHOLD / 1_000_000,
  partSizeMib: DEFAULT_PART_SIZE / MiB,
  concurrency: 3,
  partConcurrency: 4,
};

export const SETTINGS_STORAGE_KEY = 'qsc.upload-settings';

export function loadSettings(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): UploadSettings {
  try {
    const raw = storage?.getItem(SETTINGS_STORAGE_KEY);
    if (!raw) return DEFAULT_SETTINGS;
    // Settings saved by an older console lack newer fields: those take their defaults, the rest is kept.
    const stored: unknown = JSON.parse(raw);
    const parsed = uploadSettingsSchema.safeParse(typeof stored === 'object' && stored !== null ? { ...DEFAULT_SETTINGS, ...stored } : stored);
    return parsed.success ? parsed.data : DEFAULT_SETTINGS;
  } catch {
    // Storage disabled or a corrupt value: the defaults are always valid.
    return DEFAULT_SETTINGS;
  }
}

export function saveSettings(settings: UploadSettings, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Not remembering the settings is acceptable; they still apply to this page.
  }
}

export function thresholdBytes(settings: UploadSettings): number {
  return Math.round(settings.thresholdMb * 1_000_000);
}

export function partSizeBytes(settings: UploadSettings): number {
  return settings.partSizeMib * MiB;
}
