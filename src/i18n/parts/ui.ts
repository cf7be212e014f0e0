import { registerEnglish } from '../registry.ts';

/**
 * English messages of the design system's own components (src/components/ui/): the words a table, a typed
 * confirmation or the catalogue say by themselves. They load with the components (never in the entry chunk).
 */
export const uiEn = {
  'ui.table.selectAll': 'Select all rows',
  'ui.table.select': 'Select {name}',
  'ui.typedConfirm.label': 'Type {phrase} to confirm',
  'ui.catalogue.title': 'Component catalogue',
  'ui.catalogue.note': 'Every component of the console, as each screen uses it. Development builds only.',
} as const satisfies Record<`ui.${string}`, string>;

registerEnglish(uiEn);
