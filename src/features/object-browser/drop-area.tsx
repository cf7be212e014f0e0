import { useRef, useState, type DragEvent } from 'react';
import { useI18n } from '../../i18n/i18n.tsx';

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}

/**
 * Files dragged over the object area: while they are over it, a full-area overlay names the folder they will
 * go to; a drop hands the DataTransfer to `onDrop` during the event (its items are readable only then).
 * Drags of anything else (text, a link) are left alone.
 */
export function useDropArea(location: string, onDrop: ((transfer: DataTransfer) => void) | undefined) {
  const { t } = useI18n();
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed: the overlay goes when the count is back to 0.
  const depth = useRef(0);
  if (!onDrop) return { handlers: {}, overlay: null };
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setOver(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      if (!over) setOver(true);
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setOver(false);
      onDrop(event.dataTransfer);
    },
  };
  const overlay = over ? (
    <div className="drop-overlay" data-testid="drop-overlay">
      <p className="drop-overlay__title" dir="auto">
        {t('drop.overlay', { location })}
      </p>
      <p className="drop-overlay__hint">{t('drop.hint')}</p>
    </div>
  ) : null;
  return { handlers, overlay };
}
