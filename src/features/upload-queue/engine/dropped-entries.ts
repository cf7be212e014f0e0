import type { SourceFile } from './plan-batch.ts';

/**
 * Files and folders from a drop. Browsers expose a dropped folder only through the entry API
 * (DataTransferItem.webkitGetAsEntry → FileSystemDirectoryEntry), and the item list is only valid
 * during the drop event, so the entries are taken synchronously (`entriesFromDataTransfer`) and walked
 * afterwards (`walkEntries`). The minimal structural types below match the DOM ones and let tests use
 * plain fakes.
 */

export interface FileEntryLike {
  isFile: true;
  isDirectory: false;
  name: string;
  fullPath: string;
  file(success: (file: File) => void, failure?: (error: DOMException) => void): void;
}

export interface DirectoryReaderLike {
  readEntries(success: (entries: EntryLike[]) => void, failure?: (error: DOMException) => void): void;
}

export interface DirectoryEntryLike {
  isFile: false;
  isDirectory: true;
  name: string;
  fullPath: string;
  createReader(): DirectoryReaderLike;
}

export type EntryLike = FileEntryLike | DirectoryEntryLike;

export interface DataTransferItemLike {
  kind: string;
  webkitGetAsEntry(): unknown;
  getAsFile(): File | null;
}

/** A dropped thing: an entry to walk, or a plain file when the browser gave no entry. */
export type DroppedRoot = { entry: EntryLike } | { file: File };

function isEntryLike(value: unknown): value is EntryLike {
  if (typeof value !== 'object' || value === null) return false;
  if (!('isFile' in value) || !('isDirectory' in value) || !('fullPath' in value) || !('name' in value)) return false;
  if (value.isFile === true) return 'file' in value && typeof value.file === 'function';
  return value.isDirectory === true && 'createReader' in value && typeof value.createReader === 'function';
}

/** Call inside the drop handler, before any await. */
export function entriesFromDataTransfer(items: Iterable<DataTransferItemLike> | ArrayLike<DataTransferItemLike>): DroppedRoot[] {
  const roots: DroppedRoot[] = [];
  for (const item of Array.from(items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (isEntryLike(entry)) {
      roots.push({ entry });
      continue;
    }
    const file = item.getAsFile();
    if (file) roots.push({ file });
  }
  return roots;
}

function fileOf(entry: FileEntryLike): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** All children: readEntries returns batches (Chromium: at most 100) until an empty one. */
async function childrenOf(directory: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = directory.createReader();
  const all: EntryLike[] = [];
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/**
 * Every file below the dropped roots with its path relative to the drop (a dropped folder "photos"
 * yields "photos/2024/a.jpg"). Empty folders yield nothing: object storage has no directories.
 * Order: depth-first, children in the order the browser lists them.
 */
export async function walkEntries(roots: readonly DroppedRoot[]): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  async function visit(entry: EntryLike): Promise<void> {
    if (entry.isFile) {
      found.push({ file: await fileOf(entry), relativePath: entry.fullPath.replace(/^\/+/, '') || entry.name });
      return;
    }
    for (const child of await childrenOf(entry)) await visit(child);
  }
  for (const root of roots) {
    if ('file' in root) found.push({ file: root.file, relativePath: root.file.name });
    else await visit(root.entry);
  }
  return found;
}

/** Files from an <input type=file> (with or without webkitdirectory). */
export function filesFromInput(files: Iterable<File> | ArrayLike<File>): SourceFile[] {
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}
