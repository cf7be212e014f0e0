import { useEffect } from 'react';

/**
 * Files dropped where nothing takes them would make the browser open them in place of the console. The
 * window cancels every dragover and drop that no drop zone handled (a zone calls preventDefault itself) and
 * shows "no drop" there; a zone's own handling is left alone.
 */
export function useWindowDropGuard(): void {
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'none';
    };
    const onDrop = (event: DragEvent) => event.preventDefault();
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
}
