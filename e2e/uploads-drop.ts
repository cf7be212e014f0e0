import type { Locator } from '@playwright/test';

/**
 * Synthesises a drag-and-drop of files and folders onto `target` (uploads e2e). Files are generated in the
 * page (no bytes cross the Playwright protocol): `text` gives literal content, `size` repeats a 1 MiB
 * pseudo-random chunk (seeded, so the same spec yields the same bytes and fingerprint after a reload).
 *
 * Top-level files travel as real DataTransfer items. A folder cannot be put into a script-made
 * DataTransfer, so paths with a '/' are exposed through `webkitGetAsEntry()` as directory entries with the
 * FileSystemEntry shape (isFile/isDirectory/fullPath/createReader/readEntries/file) that browsers give for
 * a dropped folder; the event's `dataTransfer` is swapped for one whose items include them.
 */
export interface DropFile {
  path: string;
  text?: string;
  size?: number;
  seed?: number;
  type?: string;
  lastModified?: number;
}

export async function dropFiles(target: Locator, files: readonly DropFile[]): Promise<void> {
  await target.evaluate((element, specs) => {
    const MiB = 1024 * 1024;
    const chunkCache = new Map<number, Uint8Array<ArrayBuffer>>();
    const chunkFor = (seed: number): Uint8Array<ArrayBuffer> => {
      let chunk = chunkCache.get(seed);
      if (!chunk) {
        chunk = new Uint8Array(MiB);
        let x = seed || 1;
        for (let i = 0; i < chunk.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          chunk[i] = x & 0xff;
        }
        chunkCache.set(seed, chunk);
      }
      return chunk;
    };
    const makeFile = (spec: (typeof specs)[number]): File => {
      const name = spec.path.slice(spec.path.lastIndexOf('/') + 1);
      let parts: BlobPart[];
      if (spec.text !== undefined) parts = [spec.text];
      else {
        const size = spec.size ?? 0;
        const chunk = chunkFor(spec.seed ?? 7);
        parts = [];
        for (let done = 0; done < size; done += MiB) parts.push(size - done >= MiB ? chunk : chunk.subarray(0, size - done));
      }
      return new File(parts, name, { type: spec.type ?? '', lastModified: spec.lastModified ?? 1_700_000_000_000 });
    };

    interface Node { name: string; fullPath: string; file?: File; children: Map<string, Node> }
    const roots = new Map<string, Node>();
    const real = new DataTransfer();
    for (const spec of specs) {
      const segments = spec.path.split('/');
      if (segments.length === 1) {
        real.items.add(makeFile(spec));
        continue;
      }
      let level = roots;
      let fullPath = '';
      segments.forEach((segment, i) => {
        fullPath += `/${segment}`;
        let node = level.get(segment);
        if (!node) {
          node = { name: segment, fullPath, children: new Map() };
          level.set(segment, node);
        }
        if (i === segments.length - 1) node.file = makeFile(spec);
        level = node.children;
      });
    }
    const entryOf = (node: Node): object => {
      const file = node.file;
      return file
        ? { isFile: true, isDirectory: false, name: node.name, fullPath: node.fullPath, file: (ok: (f: File) => void) => ok(file) }
        : {
            isFile: false,
            isDirectory: true,
            name: node.name,
            fullPath: node.fullPath,
            createReader: () => {
              let read = false;
              return {
                readEntries: (ok: (entries: object[]) => void) => {
                  const batch = read ? [] : [...node.children.values()].map(entryOf);
                  read = true;
                  setTimeout(() => ok(batch), 0);
                },
              };
            },
          };
    };
    const items = [
      ...Array.from(real.items, (item) => ({ kind: item.kind, type: item.type, webkitGetAsEntry: () => null, getAsFile: () => item.getAsFile() })),
      ...[...roots.values()].map((node) => ({ kind: 'file', type: '', webkitGetAsEntry: () => entryOf(node), getAsFile: () => null })),
    ];
    const transfer = { items, files: real.files, types: ['Files'], dropEffect: 'copy', effectAllowed: 'all' };
    for (const type of ['dragenter', 'dragover', 'drop']) {
      const event = new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: real });
      Object.defineProperty(event, 'dataTransfer', { value: transfer });
      element.dispatchEvent(event);
    }
  }, files);
}
