import { describe, expect, it } from 'vitest';
import { entriesFromDataTransfer, filesFromInput, walkEntries, type DataTransferItemLike, type DirectoryEntryLike, type EntryLike, type FileEntryLike } from './dropped-entries.ts';

function fileEntry(fullPath: string): FileEntryLike {
  const name = fullPath.split('/').at(-1) ?? '';
  return { isFile: true, isDirectory: false, name, fullPath, file: (ok) => ok(new File([fullPath], name)) };
}

/** A directory whose reader hands out children in batches of `batch`, like Chromium (100). */
function dirEntry(fullPath: string, children: EntryLike[], batch = 2): DirectoryEntryLike {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.split('/').at(-1) ?? '',
    fullPath,
    createReader() {
      let offset = 0;
      return {
        readEntries(ok) {
          const next = children.slice(offset, offset + batch);
          offset += batch;
          queueMicrotask(() => ok(next));
        },
      };
    },
  };
}

describe('dropped files and folders', () => {
  it('walks nested folders, reads every batch of entries and keeps paths relative to the drop', async () => {
    const tree = dirEntry('/photos', [
      fileEntry('/photos/a.jpg'),
      fileEntry('/photos/b.jpg'),
      fileEntry('/photos/c.jpg'),
      dirEntry('/photos/2024', [fileEntry('/photos/2024/d.jpg')]),
      dirEntry('/photos/empty', []),
    ]);
    const items: DataTransferItemLike[] = [
      { kind: 'file', webkitGetAsEntry: () => tree, getAsFile: () => null },
      { kind: 'file', webkitGetAsEntry: () => fileEntry('/notes.txt'), getAsFile: () => null },
      { kind: 'string', webkitGetAsEntry: () => null, getAsFile: () => null },
      // No entry API: the plain file is taken as is.
      { kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => new File(['x'], 'plain.txt') },
    ];
    const roots = entriesFromDataTransfer(items);
    expect(roots).toHaveLength(3);
    const files = await walkEntries(roots);
    expect(files.map((f) => f.relativePath)).toEqual(['photos/a.jpg', 'photos/b.jpg', 'photos/c.jpg', 'photos/2024/d.jpg', 'notes.txt', 'plain.txt']);
    expect(await files[3]?.file.text()).toBe('/photos/2024/d.jpg');
  });

  it('fails when the browser cannot read an entry (no silent loss of files)', async () => {
    const broken: FileEntryLike = { ...fileEntry('/x'), file: (_ok, fail) => fail?.(new DOMException('gone', 'NotFoundError')) };
    await expect(walkEntries([{ entry: broken }])).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('takes <input> picks with webkitRelativePath', () => {
    const picked = new File(['1'], 'a.txt');
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'dir/a.txt' });
    expect(filesFromInput([picked, new File(['2'], 'b.txt')]).map((f) => f.relativePath)).toEqual(['dir/a.txt', 'b.txt']);
  });
});
