/**
 * The demo backend's public facts, shared by the console's demo mode and the emulator's demo seed. The key
 * pair is public: only the emulator's seeded demo user accepts it and it grants nothing anywhere else.
 */

export const DEMO_ACCESS_KEY_ID = 'QSDEMOACCESSKEYID0001';
export const DEMO_SECRET_ACCESS_KEY = 'qsdemoSecretAccessKey0000000000000000000';

/**
 * Smallest part the demo emulator accepts at Complete (the real minimum is MIN_PART_SIZE): the demo's
 * 2,500-part upload uses parts this small, and the multipart inspector offers it as the demo's rule.
 */
export const DEMO_MIN_PART_SIZE = 16;
