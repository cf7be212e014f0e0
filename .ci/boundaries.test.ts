import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSource, checkTree } from './boundaries.ts';

describe('import boundaries', () => {
  it('refuses a feature importing another feature, at any depth', () => {
    expect(checkSource('src/features/metadata/editor.tsx', "import { x } from '../object-browser/queries.ts';")).toHaveLength(1);
    expect(checkSource('src/features/uploads/ui/panel.tsx', "import { x } from '../../metadata/save.ts';")).toHaveLength(1);
    expect(checkSource('src/features/uploads/ui/panel.tsx', "const m = import('../../multipart/x.tsx');")).toHaveLength(1);
    // Within one feature, and to shared layers, is fine.
    expect(checkSource('src/features/uploads/ui/panel.tsx', "import { x } from '../engine/queue.ts';\nimport { y } from '../../../api/client.ts';")).toEqual([]);
  });

  it('keeps src/api free of UI, shared layers free of features, and mocks on mocks/ + src/api only', () => {
    expect(checkSource('src/api/objects/operations.ts', "import { t } from '../../i18n/i18n.tsx';")[0]?.rule).toMatch(/free of UI/);
    expect(checkSource('src/hooks/use-x.ts', "import { x } from '../features/metadata/save.ts';")).toHaveLength(1);
    expect(checkSource('mocks/handlers/object.ts', "import { x } from '../../src/features/metadata/save.ts';")[0]?.rule).toMatch(/mocks/);
    expect(checkSource('mocks/handlers/object.ts', "import { x } from '../../src/api/metadata/model.ts';")).toEqual([]);
  });

  it('refuses a query key array written outside src/api', () => {
    const found = checkSource('src/features/metadata/bulk-edit.tsx', "queryClient.invalidateQueries({ queryKey: [...bucketKey(client, bucket), 'object'] });");
    expect(found.map((v) => v.line)).toEqual([1]);
    expect(checkSource('src/api/objects/queries.ts', "queryKey: [...objectKey(client, b, k), 'head'] as const,")).toEqual([]);
  });

  it('refuses waitForTimeout in browser tests and benches', () => {
    expect(checkSource('e2e/uploads.spec.ts', '  await page.waitForTimeout(500);')[0]?.rule).toMatch(/waitForTimeout/);
    expect(checkSource('bench/browse.ts', 'await page.waitForTimeout (150);')).toHaveLength(1);
    expect(checkSource('e2e/uploads.spec.ts', "await expect.poll(() => count()).toBe(400);")).toEqual([]);
  });

  it('the tree itself is clean', () => {
    expect(checkTree(path.join(import.meta.dirname, '..'))).toEqual([]);
  });
});
