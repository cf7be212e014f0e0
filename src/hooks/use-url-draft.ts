import { useEffect, useRef, useState } from 'react';

/** How long typing in a filter pauses before the URL (and with it the listing) changes. */
export const FILTER_DEBOUNCE_MS = 250;

/**
 * A text field that edits a value the URL owns (a filter, a prefix): what is typed is a draft, handed to
 * `commit` once typing pauses. The draft remembers which URL value it was typed against, so when the URL
 * changes from outside (back/forward, a link) the URL wins. Answers the text to show and its setter.
 */
export function useUrlDraft(urlValue: string, commit: (value: string) => void): [string, (value: string) => void] {
  const [draft, setDraft] = useState({ base: urlValue, value: urlValue });
  const value = draft.base === urlValue ? draft.value : urlValue;
  // The latest `commit`, so a re-render with a new callback (progress, a refetch) does not restart the pause.
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  }, [commit]);
  useEffect(() => {
    if (value === urlValue) return;
    const timer = setTimeout(() => {
      commitRef.current(value);
      // Once committed the draft is the URL's value: when the URL later changes (another bucket, back), the
      // URL wins, instead of an old draft whose base happens to equal the new value coming back.
      setDraft({ base: value, value });
    }, FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, urlValue]);
  return [value, (next: string) => setDraft({ base: urlValue, value: next })];
}
