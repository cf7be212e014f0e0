import { join } from 'node:path';

/** Where the screenshot files go (committed, shown in README), and the sizes and schemes every screen is taken at. */
export const SHOTS_DIR = join(import.meta.dirname, '..', 'screenshots');
export const SHOT_SIZES = [
  { name: '1280', width: 1280, height: 800 },
  { name: '390', width: 390, height: 844 },
] as const;
export const SHOT_SCHEMES = ['light', 'dark'] as const;
