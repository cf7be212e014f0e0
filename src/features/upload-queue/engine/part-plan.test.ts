import { describe, expect, it } from 'vitest';
import { DEFAULT_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, PartPlanError, inferPartPlan, partLength, partRange, partsFitPlan, planParts } from './part-plan.ts';

const MiB = 1024 * 1024;

describe('planParts', () => {
  it('uses the default 8 MiB part size and counts the short last part', () => {
    expect(planParts(20 * MiB)).toEqual({ fileSize: 20 * MiB, partSize: DEFAULT_PART_SIZE, partCount: 3 });
    const plan = planParts(20 * MiB);
    expect([0, 1, 2].map((n) => partLength(plan, n))).toEqual([8 * MiB, 8 * MiB, 4 * MiB]);
    expect(partRange(plan, 2)).toEqual({ start: 16 * MiB, end: 20 * MiB });
  });

  it('never goes below the 4 MiB minimum, and exactly 4 MiB is one part', () => {
    expect(planParts(4 * MiB, { partSize: MIN_PART_SIZE })).toEqual({ fileSize: 4 * MiB, partSize: 4 * MiB, partCount: 1 });
    expect(planParts(4 * MiB + 1, { partSize: MIN_PART_SIZE }).partCount).toBe(2);
    expect(planParts(100 * MiB, { partSize: 1 * MiB }).partSize).toBe(MIN_PART_SIZE);
  });

  it('keeps the wanted size while the file fits in 10,000 parts', () => {
    const plan = planParts(10_000 * 4 * MiB, { partSize: 4 * MiB });
    expect(plan).toMatchObject({ partSize: 4 * MiB, partCount: MAX_PARTS });
  });

  it('grows the part size (whole MiB) when 10,000 parts would not be enough', () => {
    const plan = planParts(10_000 * 4 * MiB + 1, { partSize: 4 * MiB });
    expect(plan.partSize).toBe(5 * MiB);
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PARTS);
    const huge = planParts(1024 * 1024 * MiB); // 1 TiB
    expect(huge.partCount).toBeLessThanOrEqual(MAX_PARTS);
    expect(huge.partSize % MiB).toBe(0);
    expect(huge.partSize * huge.partCount).toBeGreaterThanOrEqual(1024 * 1024 * MiB);
  });

  it('refuses files that would need parts above 5 GB', () => {
    expect(() => planParts(10_000 * 5 * 1024 * MiB + 1)).toThrow(PartPlanError);
  });

  it('gives an empty file one empty part and honours a tiny test minimum', () => {
    expect(planParts(0)).toMatchObject({ partCount: 1 });
    expect(planParts(50, { minPartSize: 4, partSize: 8 })).toEqual({ fileSize: 50, partSize: 8, partCount: 7 });
  });
});

describe('resuming: does an existing upload fit the file?', () => {
  const plan = { fileSize: 50, partSize: 8, partCount: 7 };

  it('accepts listed parts of planned sizes and refuses other sizes or numbers', () => {
    expect(partsFitPlan(plan, [{ partNumber: 0, size: 8 }, { partNumber: 6, size: 2 }])).toBe(true);
    expect(partsFitPlan(plan, [{ partNumber: 6, size: 8 }])).toBe(false);
    expect(partsFitPlan(plan, [{ partNumber: 7, size: 8 }])).toBe(false);
  });

  it('infers the part size from the remembered size, the largest part, or today’s default', () => {
    const parts = [{ partNumber: 1, size: 8 }, { partNumber: 3, size: 8 }];
    expect(inferPartPlan(50, parts, [undefined], { minPartSize: 4, partSize: 16 })).toEqual(plan);
    expect(inferPartPlan(50, [], [8], { minPartSize: 4, partSize: 16 })).toEqual(plan);
    // Only the short last part is there: its size is no guide, today's default (8) fits.
    expect(inferPartPlan(50, [{ partNumber: 6, size: 2 }], [undefined], { minPartSize: 4, partSize: 8 })).toEqual(plan);
  });

  it('returns null for a file of another size', () => {
    const parts = [{ partNumber: 0, size: 8 }, { partNumber: 6, size: 2 }];
    expect(inferPartPlan(49, parts, [8], { minPartSize: 4, partSize: 8 })).toBeNull();
  });
});
