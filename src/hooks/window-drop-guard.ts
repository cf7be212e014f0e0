/**
 * Files dropped where nothing takes them would make the browser open them in place of the console. The
 * window cancels every dragover and drop that no drop zone handled (a zone calls preventDefault itself) and
 * shows "no drop" there; a zone's own handling is left alone. Installed once at start-up (main.tsx), before
 * the first screen, so no moment of the page's life lets a drop through.
 */
export function installWindowDropGuard(target: Window): void {
  target.addEventListener('dragover', (event) => {
    if (event.defaultPrevented) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
  });
  target.addEventListener('drop', (event) => event.preventDefault());
}
