import { Toaster } from '../components/toast.tsx';
import { useWindowDropGuard } from '../hooks/window-drop-guard.ts';

/**
 * What the shell needs on every screen but not for its first paint, loaded right after it: the toasts' live
 * region (empty until an action of a lazily loaded view finishes) and the window's refusal of file drops
 * that no drop zone takes.
 */
export function ShellLater() {
  useWindowDropGuard();
  return <Toaster />;
}
