import type { ReactNode } from 'react';
import type { ObjectMetadata } from '../../api/metadata/types.ts';
import type { ObjectHead } from '../../api/objects/read.ts';

/** A metadata form for a REPLACE copy, supplied by the app (the metadata feature owns the fields). */
export type ReplaceMetadataRenderer = (props: {
  /** The object being copied, as its HEAD read it (the form decides what it can safely resend). */
  source: { zone: string; bucket: string; head: ObjectHead };
  initial: ObjectMetadata;
  onChange: (metadata: ObjectMetadata | null) => void;
}) => ReactNode;

export interface ObjectActionsProps {
  zone: string;
  bucket: string;
  objectKey: string;
  head: ObjectHead;
  /** Show another object's details (after a copy/move), or close the panel (`null`, after delete). */
  onNavigate: (target: { bucket: string; key: string } | null) => void;
  renderReplaceMetadata?: ReplaceMetadataRenderer;
}

/** An action on one object started outside the details panel (the table's row menu, the selection bar). */
export type ObjectAction = 'copy' | 'move' | 'delete';

/** The props of the copy and move forms: the object, and how the dialog closes and learns of unsaved input. */
export type FormProps = ObjectActionsProps & { onDone: () => void; onDirty: (dirty: boolean) => void };
