import { useSyncExternalStore } from 'react';

/** A phone-sized window (the width at which the layout turns into the phone's). */
const PHONE_MEDIA = '(max-width: 40rem)';

/** Whether the window is phone-sized now (follows rotation and resizing). */
export function usePhoneWidth(): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const query = window.matchMedia(PHONE_MEDIA);
      query.addEventListener('change', notify);
      return () => query.removeEventListener('change', notify);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_MEDIA).matches,
  );
}
