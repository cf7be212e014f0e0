import { en } from './en.ts';

/**
 * The English messages known so far: the entry chunk's (en.ts) plus every part a loaded module has
 * registered (src/i18n/parts/). English is the fallback of every other catalog.
 */
const english: Record<string, string> = { ...en };

export function registerEnglish(messages: Readonly<Record<string, string>>): void {
  Object.assign(english, messages);
}

export function englishMessage(key: string): string | undefined {
  return Object.hasOwn(english, key) ? english[key] : undefined;
}
