import type { BucketRef, CallOptions, QsClient, WriteResult } from '../client.ts';
import { deleteBucketLifecycle, getBucketLifecycle, putBucketLifecycle } from './operations.ts';
import { MAX_LIFECYCLE_RULES, type LifecycleRule } from './schemas.ts';

/** The id of the rule the console writes (ref §9.10 decision). */
export const AUTO_ABORT_RULE_ID = 'qsc-abort-incomplete-uploads';

/** A rule that aborts incomplete multipart uploads, as the console describes it. */
export interface AbortRule {
  id: string;
  prefix: string;
  days: number;
  enabled: boolean;
}

export function abortRulesOf(rules: readonly LifecycleRule[]): AbortRule[] {
  const found: AbortRule[] = [];
  for (const rule of rules) {
    const abort = rule.abort_incomplete_multipart_upload;
    if (abort === undefined) continue;
    found.push({ id: rule.id, prefix: rule.filter?.prefix ?? '', days: abort.days_after_initiation, enabled: rule.status === 'enabled' });
  }
  return found;
}

/** The rule covering the whole bucket (empty prefix), whoever wrote it: QingStor allows one per prefix. */
export function wholeBucketAbortRule(rules: readonly LifecycleRule[]): AbortRule | undefined {
  return abortRulesOf(rules).find((rule) => rule.prefix === '');
}

/**
 * The rules after setting the whole-bucket abort to `days` (or removing it with `null`). Every other rule
 * is kept exactly as it came; an existing whole-bucket abort rule keeps its id and any fields of its own.
 */
export function withWholeBucketAbort(rules: readonly LifecycleRule[], days: number | null): LifecycleRule[] {
  const isWholeBucketAbort = (rule: LifecycleRule) => rule.abort_incomplete_multipart_upload !== undefined && (rule.filter?.prefix ?? '') === '';
  const index = rules.findIndex(isWholeBucketAbort);
  if (days === null) return rules.filter((_, i) => i !== index);
  if (!Number.isInteger(days) || days < 1) throw new RangeError('days must be a whole number of at least 1');
  const existing = index >= 0 ? rules[index] : undefined;
  const rule: LifecycleRule = existing
    ? { ...existing, status: 'enabled', abort_incomplete_multipart_upload: { ...existing.abort_incomplete_multipart_upload, days_after_initiation: days } }
    : { id: AUTO_ABORT_RULE_ID, status: 'enabled', filter: { prefix: '' }, abort_incomplete_multipart_upload: { days_after_initiation: days } };
  if (index >= 0) return rules.map((r, i) => (i === index ? rule : r));
  if (rules.length >= MAX_LIFECYCLE_RULES) throw new RangeError(`the bucket already has ${MAX_LIFECYCLE_RULES} lifecycle rules`);
  return [...rules, rule];
}

/**
 * Sets or removes the whole-bucket auto-abort rule. The rules are read fresh just before the write (not from
 * a cache) so that rules written meanwhile by someone else are sent back; QingStor has no conditional write
 * for lifecycle, so two writers within that moment can still overwrite each other.
 */
export async function setWholeBucketAbort(client: QsClient, ref: BucketRef, days: number | null, options: CallOptions = {}): Promise<WriteResult> {
  const current = await getBucketLifecycle(client, ref, options);
  const next = withWholeBucketAbort(current.rule, days);
  if (next.length === 0) return deleteBucketLifecycle(client, ref, options);
  return putBucketLifecycle(client, ref, next, options);
}
