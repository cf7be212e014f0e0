import { describe, expect, it } from 'vitest';
import type { ObjectPart } from '../../api/multipart/schemas.ts';
import type { PartScan } from './part-scan.ts';
import { completeParts, jumpMarker, parentOf, partsPagePosition, previousPageMarker, typicalSize } from './upload-detail-model.ts';

const part = (n: number, size = 10): ObjectPart => ({ part_number: n, size }) as ObjectPart;
// Parts 1–5 and 8–9 (6 and 7 missing), counted: pages of 2 are [1,2] [3,4] [5,8] [9].
const scan = { numbers: Int32Array.from([1, 2, 3, 4, 5, 8, 9]), etags: ['a', 'b', '', 'd', 'e', 'f', 'g'] } as unknown as PartScan;

describe('parts page position', () => {
  it('knows the last full page is the last once all parts are counted, and not before', () => {
    const lastPage = [part(8), part(9)];
    expect(partsPagePosition([part(4), part(5)], 2, scan, false)).toMatchObject({ hasNext: true, pageIndex: 1, pageCount: 4, lastPartNumber: 9 });
    expect(partsPagePosition(lastPage, 2, scan, false)).toMatchObject({ hasNext: false, pageIndex: 2 });
    expect(partsPagePosition(lastPage, 2, undefined, false)).toMatchObject({ hasNext: true, pageIndex: null, pageCount: null });
    expect(partsPagePosition([part(1), part(2)], 2, scan, true).hasNext).toBe(false);
  });

  it('goes back by the counted list, else by the pages visited', () => {
    expect(previousPageMarker(null, [part(1)], 2, scan, [])).toBeUndefined();
    expect(previousPageMarker(4, [part(5), part(8)], 2, scan, [])).toBe(2);
    expect(previousPageMarker(2, [part(3), part(4)], 2, scan, [])).toBeNull();
    expect(previousPageMarker(4, [part(5), part(8)], 2, undefined, [null, 2])).toBe(2);
  });

  it('jumps to the page holding a part, or the next present one', () => {
    expect(jumpMarker(6, 2, scan)).toBe(4);
    expect(jumpMarker(1, 2, scan)).toBeNull();
    expect(jumpMarker(99, 2, scan)).toBe(8);
    expect(jumpMarker(6, 2, undefined)).toBe(5);
    expect(jumpMarker(0, 2, undefined)).toBeNull();
  });
});

describe('the rest of the model', () => {
  it('lists the Complete body with ETags, none where the listing had none', () => {
    expect(completeParts(scan).slice(1, 3)).toEqual([{ partNumber: 2, etag: 'b' }, { partNumber: 3, etag: undefined }]);
  });
  it('finds the common size and the folder of a key', () => {
    expect(typicalSize([part(1, 5), part(2, 5), part(3, 9)])).toBe(5);
    expect(typicalSize([part(1, 5), part(2, 9)])).toBe(9);
    expect(parentOf('a/b/c.bin')).toBe('a/b/');
    expect(parentOf('c.bin')).toBe('');
  });
});
