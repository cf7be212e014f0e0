import { Toaster } from '../components/toast.tsx';

/**
 * What the shell needs on every screen but not for its first paint, loaded right after it: the toasts' live
 * region (empty until an action of a lazily loaded view finishes).
 */
export function ShellLater() {
  return <Toaster />;
}
