import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSource, checkTree, zoneOf, ZONES } from './boundaries.ts';

/** The rules broken by one file's source. */
const rules = (file: string, source: string) => checkSource(file, source).map((v) => v.rule);

describe('import boundaries: the zone table', () => {
  it('puts every file in the first zone that matches, a feature being a zone of its own', () => {
    expect(zoneOf('src/features/upload-queue/engine/queue.ts')?.name).toBe('src/features/upload-queue');
    expect(zoneOf('src/app/demo-backend.ts')?.name).toBe('src/app/demo-backend.ts');
    expect(zoneOf('src/app/routes/bucket-route.tsx')?.name).toBe('src/app');
    expect(zoneOf('mocks/server-adapter.ts')?.name).toBe('mocks/server');
    expect(zoneOf('mocks/store/idb.ts')?.name).toBe('mocks/store');
    expect(zoneOf('src/features/x.ts')).toBeNull(); // a file directly in src/features is no feature
    expect(zoneOf('scripts/new-tool.ts')).toBeNull();
    // Every zone a row allows exists (a typo would allow nothing and go unnoticed).
    const exists = (entry: string) =>
      ZONES.some(({ name }) => (entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry || (name.includes('*') && new RegExp(`^${name.replace('*', '[^/]+')}$`).test(entry))));
    for (const zone of ZONES) {
      for (const entry of [...zone.imports, ...(zone.tests ?? [])]) expect(exists(entry), `${zone.name} allows ${entry}`).toBe(true);
    }
    expect(exists('mocks/nowhere')).toBe(false);
  });

  it('refuses a file in no zone', () => {
    expect(rules('tools/new.ts', 'export const x = 1;')).toEqual([expect.stringMatching(/in no zone/)]);
  });

  it('refuses a feature importing another feature, at any depth, in any form of import', () => {
    expect(rules('src/features/metadata/editor.tsx', "import { x } from '../object-browser/queries.ts';")).toEqual([expect.stringMatching(/src\/features\/metadata imports src\/features\/object-browser/)]);
    expect(rules('src/features/upload-queue/ui/panel.tsx', "import {\n  x,\n  y,\n} from '../../metadata/save.ts';")).toHaveLength(1);
    expect(rules('src/features/upload-queue/ui/panel.tsx', "import type { X } from '../../metadata/save.ts';")).toHaveLength(1);
    expect(rules('src/features/upload-queue/ui/panel.tsx', "export { x } from '../../metadata/save.ts';")).toHaveLength(1);
    expect(rules('src/features/upload-queue/ui/panel.tsx', "const m = import('../../multipart/x.tsx');")).toHaveLength(1);
    expect(rules('src/features/upload-queue/engine/hasher.ts', "const w = new Worker(new URL('../../metadata/x.worker.ts', import.meta.url));")).toHaveLength(1);
    // Within one feature, and to shared layers, is fine; so is an import written inside a string or comment.
    expect(rules('src/features/upload-queue/ui/panel.tsx', "import { x } from '../engine/index.ts';\nimport { y } from '../../../api/client.ts';")).toEqual([]);
    expect(rules('src/features/upload-queue/ui/panel.tsx', "// import { x } from '../../metadata/save.ts';\nconst s = \"import { y } from '../../metadata/save.ts'\";")).toEqual([]);
    expect(rules('src/features/upload-queue/engine/hasher.ts', "/** new Worker(new URL('../../metadata/x.worker.ts', import.meta.url)) */")).toEqual([]);
  });

  it('refuses a feature importing src/app: features meet only there', () => {
    expect(rules('src/features/object-browser/object-browser.tsx', "import { demoDataControls } from '../../app/demo-backend.ts';")).toHaveLength(1);
    expect(rules('src/features/buckets/bucket-list-page.tsx', "import { useX } from '../../app/session-provider.tsx';")).toEqual([expect.stringMatching(/src\/features\/buckets imports src\/app/)]);
    expect(rules('src/app/routes/bucket-route.tsx', "import { ObjectBrowser } from '../../features/object-browser/object-browser.tsx';")).toEqual([]);
  });

  it('keeps src/api free of UI, and shared layers free of features and routes', () => {
    expect(rules('src/api/objects/operations.ts', "import { t } from '../../i18n/i18n.tsx';")).toEqual([expect.stringMatching(/src\/api imports src\/i18n \(the api layer is free of UI/)]);
    expect(rules('src/api/objects/operations.ts', "import { useState } from 'react';")).toEqual([expect.stringMatching(/src\/api imports package react/)]);
    expect(rules('src/hooks/use-x.ts', "import { x } from '../features/metadata/save.ts';")).toHaveLength(1);
    expect(rules('src/components/x.tsx', "import { x } from '../app/shell.tsx';")).toHaveLength(1);
    expect(rules('src/lib/format.ts', "import { x } from '../api/client.ts';")).toHaveLength(1);
  });

  it('lets src/ reach mocks/ only from the one module that boots the demo backend; its tests reach the emulator', () => {
    const dynamic = "const m = () => import('../../mocks/browser.ts');";
    expect(rules('src/app/demo-backend.ts', dynamic)).toEqual([]);
    expect(rules('src/components/demo-data-dialog.tsx', dynamic)).toEqual([expect.stringMatching(/src\/components imports mocks\/browser/)]);
    expect(rules('src/main.tsx', "const m = await import('../mocks/browser.ts');")).toHaveLength(1);
    expect(rules('src/app/shell.tsx', dynamic)).toHaveLength(1);
    // Tests may reach wider (the real emulator, the shared test helpers), production code may not.
    const node = "import { setupEmulatorServer } from '../../../mocks/node.ts';";
    expect(rules('src/features/metadata/save.test.ts', node)).toEqual([]);
    expect(rules('src/features/metadata/save.ts', node)).toHaveLength(1);
    expect(rules('src/features/metadata/save.test.ts', "import { x } from '../../../mocks/handlers/object.ts';")).toHaveLength(1);
  });

  it("keeps the emulator's layers apart: the store knows no msw nor handler, HTTP utilities no handler", () => {
    expect(rules('mocks/store/objects.ts', "import { http } from 'msw';")).toEqual([expect.stringMatching(/mocks\/store imports package msw/)]);
    expect(rules('mocks/store/idb.ts', "import type { X } from '../handlers/context.ts';")).toEqual([expect.stringMatching(/mocks\/store imports mocks\/handlers/)]);
    expect(rules('mocks/store/idb.ts', "import type { X } from '../emulator.ts';")).toHaveLength(1);
    expect(rules('mocks/http/form-stream.ts', "import type { PostForm } from '../handlers/post-object.ts';")).toEqual([expect.stringMatching(/mocks\/http imports mocks\/handlers/)]);
    expect(rules('mocks/handlers/object.ts', "import { x } from '../../src/features/metadata/save.ts';")).toEqual([expect.stringMatching(/mocks\/handlers imports src\/features\/metadata/)]);
    expect(rules('mocks/handlers/object.ts', "import { x } from '../../src/api/metadata/header-mapping.ts';\nimport { y } from '../store/index.ts';")).toEqual([]);
    // A store test may use the whole emulator.
    expect(rules('mocks/store/idb.test.ts', "import { send } from '../handlers/test-utils.ts';")).toEqual([]);
  });

  it('keeps test helpers out of production code', () => {
    expect(rules('src/features/upload-queue/engine/queue.ts', "import { FakeServer } from './test-fakes.ts';")).toEqual([expect.stringMatching(/test helper src\/features\/upload-queue\/engine\/test-fakes\.ts/)]);
    expect(rules('src/features/upload-queue/engine/queue.test.ts', "import { FakeServer } from './test-fakes.ts';")).toEqual([]);
  });

  it('shares src/test-data between the unit tests and the journeys, and keeps it out of the console', () => {
    expect(zoneOf('src/test-data/hidden-names.ts')?.name).toBe('src/test-data');
    // The one list of hidden names: a unit test and a journey both import it.
    expect(rules('src/lib/visible-text.test.ts', "import { HIDDEN_NAMES } from '../test-data/hidden-names.ts';")).toEqual([]);
    expect(rules('e2e/hidden-names.spec.ts', "import { HIDDEN_NAMES } from '../src/test-data/hidden-names.ts';")).toEqual([]);
    // Console code may not, nor may journeys reach the unit tests' helpers through it.
    expect(rules('src/lib/visible-text.ts', "import { HIDDEN_NAMES } from '../test-data/hidden-names.ts';")).toEqual([expect.stringMatching(/^src\/lib imports src\/test-data/)]);
    expect(rules('src/features/object-browser/x.tsx', "import { HIDDEN_NAMES } from '../../test-data/hidden-names.ts';")).toHaveLength(1);
    expect(rules('e2e/hidden-names.spec.ts', "import { memoryStorage } from '../src/test-support/memory-storage.ts';")).toEqual([expect.stringMatching(/test helper src\/test-support\/memory-storage\.ts/)]);
    // The data itself imports nothing: it stays plain data both sides can trust.
    expect(rules('src/test-data/hidden-names.ts', "import { visibleText } from '../lib/visible-text.ts';")).toEqual([expect.stringMatching(/^src\/test-data imports src\/lib/)]);
    expect(rules('src/test-data/hidden-names.ts', "import { z } from 'zod';")).toEqual([expect.stringMatching(/package zod/)]);
  });

  it("reaches the upload engine through its public surface only, except from the engine itself and tests", () => {
    expect(rules('src/features/upload-queue/ui/settings.ts', "import { DEFAULT_PART_SIZE } from '../engine/part-plan.ts';")).toEqual([expect.stringMatching(/past src\/features\/upload-queue\/engine\/index\.ts/)]);
    expect(rules('src/features/upload-queue/ui/upload-hooks.ts', "import type { UploadTotals } from '../engine/queue.ts';")).toHaveLength(1);
    expect(rules('src/features/upload-queue/ui/settings.ts', "import { DEFAULT_PART_SIZE } from '../engine/index.ts';")).toEqual([]);
    expect(rules('src/features/upload-queue/engine/queue.ts', "import { planParts } from './part-plan.ts';")).toEqual([]);
    expect(rules('src/features/upload-queue/ui/upload-host.test.ts', "import { createUploadQueue } from '../engine/queue.ts';")).toEqual([]);
  });

  it('refuses waitForTimeout in browser tests and benches', () => {
    expect(rules('e2e/uploads.spec.ts', '  await page.waitForTimeout(500);')).toEqual([expect.stringMatching(/waitForTimeout/)]);
    expect(rules('bench/browse.ts', 'await page.waitForTimeout (150);')).toHaveLength(1);
    expect(rules('e2e/uploads.spec.ts', 'await expect.poll(() => count()).toBe(400);')).toEqual([]);
  });

  it('the tree itself is clean', () => {
    expect(checkTree(path.join(import.meta.dirname, '..'))).toEqual([]);
  });
});
