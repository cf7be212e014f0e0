import { registerEnglish } from '../registry.ts';

/**
 * English messages of copying and moving many objects. They travel with the code that shows them, not in the entry chunk:
 * every module that uses a `transfer.*` key imports this one (src/i18n/parts.test.ts checks it), and importing
 * it registers the messages before any of them is rendered. The Chinese catalog stays whole (zh-cn.ts).
 */
export const transferEn = {
  'transfer.copyTitle': 'Copy {count} objects',
  'transfer.moveTitle': 'Move {count} objects',
  'transfer.destFolder': 'Destination folder',
  'transfer.destHint': 'Each object keeps its name, e.g. {example}',
  'transfer.skipExisting': 'Skip objects that already exist there (otherwise they are replaced)',
  'transfer.sameFolder': 'The objects are already there: choose another folder or bucket.',
  'transfer.start': 'Start',
  'transfer.progress': '{done} of {total} done…',
  'transfer.stop': 'Stop',
  'transfer.copied.one': 'Copied {count} object to {location}.',
  'transfer.copied.other': 'Copied {count} objects to {location}.',
  'transfer.moved.one': 'Moved {count} object to {location}.',
  'transfer.moved.other': 'Moved {count} objects to {location}.',
  'transfer.skipped.one': '{count} skipped: already there.',
  'transfer.skipped.other': '{count} skipped: already there.',
  'transfer.stopped': 'Stopped; the rest were left as they were.',
} as const satisfies Record<`transfer.${string}`, string>;

registerEnglish(transferEn);
