import type { MessageKey } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- registers the English messages this module shows
import '../../i18n/parts/admin.ts';

/**
 * QingStor's bucket name rules (ref §1.3): 6 to 63 characters from lower-case letters, digits and '-',
 * beginning and ending with a letter or digit (an IP-shaped name has dots, so the character rule already
 * refuses it). The first rule broken is returned as a message key, null when the name is acceptable (uniqueness is the server's to say).
 */
export function bucketNameProblem(name: string): MessageKey | null {
  if (name.length < 6 || name.length > 63) return 'admin.name.length';
  if (!/^[a-z0-9-]+$/.test(name)) return 'admin.name.chars';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'admin.name.ends';
  return null;
}
