/**
 * Multipart part layout (ref §8): every part but the last ≥ 4 MB, at most 10,000 parts, a part ≤ 5 GB.
 * Part numbers start at 0 (ref §8: "integers ≥ 0"), so 10,000 parts are numbers 0..9999 — inside the
 * 0..10000 range UploadMultipart accepts.
 */
import { MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE } from '../../../api/protocol/limits.ts';

export { MAX_PART_SIZE, MAX_PARTS, MIN_PART_SIZE };

const MiB = 1024 * 1024;

/**
 * 8 MiB default: small enough that a retried or paused part loses little work and parallel parts keep
 * the line busy, large enough that per-request overhead (signing, MD5 round trip, headers) stays small.
 */
export const DEFAULT_PART_SIZE = 8 * MiB;

export interface PartPlanOptions {
  /** Wanted part size; grown when the file would need more than `maxParts` parts. */
  partSize?: number;
  /** Smallest allowed part size (tests against the emulator use a tiny one). */
  minPartSize?: number;
  maxParts?: number;
}

export interface PartPlan {
  fileSize: number;
  partSize: number;
  partCount: number;
}

export class PartPlanError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'PartPlanError';
  }
}

/** Part size and count for a file. Growth rounds up to a whole MiB so the numbers stay readable. */
export function planParts(fileSize: number, options: PartPlanOptions = {}): PartPlan {
  if (!Number.isSafeInteger(fileSize) || fileSize < 0) throw new PartPlanError(`Invalid file size ${fileSize}`);
  const minPartSize = options.minPartSize ?? MIN_PART_SIZE;
  const maxParts = options.maxParts ?? MAX_PARTS;
  let partSize = Math.max(options.partSize ?? DEFAULT_PART_SIZE, minPartSize);
  if (Math.ceil(fileSize / partSize) > maxParts) {
    const needed = Math.ceil(fileSize / maxParts);
    partSize = Math.max(minPartSize, Math.ceil(needed / MiB) * MiB);
  }
  if (partSize > MAX_PART_SIZE) {
    throw new PartPlanError(`A file of ${fileSize} bytes needs parts larger than 5 GB; QingStor cannot store it in ${maxParts} parts.`);
  }
  return { fileSize, partSize, partCount: Math.max(1, Math.ceil(fileSize / partSize)) };
}

/** Byte range [start, end) of part `partNumber`. */
export function partRange(plan: PartPlan, partNumber: number): { start: number; end: number } {
  const start = partNumber * plan.partSize;
  return { start, end: Math.min(plan.fileSize, start + plan.partSize) };
}

export function partLength(plan: PartPlan, partNumber: number): number {
  const { start, end } = partRange(plan, partNumber);
  return end - start;
}

/**
 * Whether parts already on the server fit `plan`: each listed number exists in the plan and, when the
 * listing gives a size, it equals the planned length. A file of another size (or another part size)
 * fails this and must not be completed with those parts.
 */
export function partsFitPlan(plan: PartPlan, parts: ReadonlyArray<{ partNumber: number; size?: number }>): boolean {
  return parts.every((p) => p.partNumber >= 0 && p.partNumber < plan.partCount && (p.size === undefined || p.size === partLength(plan, p.partNumber)));
}

/**
 * The part size of an existing upload, for resuming it with a local file of `fileSize` bytes. Candidates
 * in order: the remembered part size (same browser), the largest listed part (every part but the last
 * has the full size), then the size we would choose today. The first whose plan fits every listed part
 * wins; null when none does (wrong file).
 */
export function inferPartPlan(
  fileSize: number,
  parts: ReadonlyArray<{ partNumber: number; size?: number }>,
  candidates: ReadonlyArray<number | undefined>,
  options: PartPlanOptions = {},
): PartPlan | null {
  const largest = parts.reduce((max, p) => Math.max(max, p.size ?? 0), 0);
  const minPartSize = options.minPartSize ?? MIN_PART_SIZE;
  const sizes = [...candidates.filter((c): c is number => c !== undefined), largest, planParts(fileSize, options).partSize];
  for (const partSize of sizes) {
    // Below the minimum it cannot be the size of the non-last parts (a lone short last part is no guide).
    if (partSize < minPartSize) continue;
    const partCount = Math.max(1, Math.ceil(fileSize / partSize));
    if (partCount > (options.maxParts ?? MAX_PARTS)) continue;
    const plan = { fileSize, partSize, partCount };
    if (partsFitPlan(plan, parts)) return plan;
  }
  return null;
}
