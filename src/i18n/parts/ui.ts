import { registerEnglish } from '../registry.ts';

/**
 * English messages of the design system's own components (src/components/ui/): the words a table, a typed
 * confirmation or the catalogue say by themselves. They load with the components (never in the entry chunk).
 */
export const uiEn = {
  'ui.table.selectAll': 'Select all rows',
  'ui.table.select': 'Select {name}',
  'ui.typedConfirm.label': 'Type {phrase} to confirm',
} as const satisfies Record<`ui.${string}`, string>;

registerEnglish(uiEn);
