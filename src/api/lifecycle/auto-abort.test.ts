import { describe, expect, it } from 'vitest';
import { AUTO_ABORT_RULE_ID, wholeBucketAbortRule, withWholeBucketAbort } from './auto-abort.ts';
import type { LifecycleRule } from './schemas.ts';

const logs: LifecycleRule = { id: 'logs', status: 'enabled', filter: { prefix: 'logs/' }, expiration: { days: 90 }, vendor_field: { kept: true } };
const dataAbort: LifecycleRule = { id: 'abort-data', status: 'enabled', filter: { prefix: 'data/' }, abort_incomplete_multipart_upload: { days_after_initiation: 3 } };

describe('the whole-bucket auto-abort rule', () => {
  it('is added with the console id, keeping every other rule exactly as it came', () => {
    const next = withWholeBucketAbort([logs, dataAbort], 7);
    expect(next).toEqual([logs, dataAbort, { id: AUTO_ABORT_RULE_ID, status: 'enabled', filter: { prefix: '' }, abort_incomplete_multipart_upload: { days_after_initiation: 7 } }]);
    expect(next[0]).toBe(logs);
    expect(wholeBucketAbortRule(next)).toEqual({ id: AUTO_ABORT_RULE_ID, prefix: '', days: 7, enabled: true });
  });

  it('changes an existing whole-bucket abort rule in place (its id and fields kept), since QingStor allows one per prefix', () => {
    const theirs: LifecycleRule = { id: 'ops-team', status: 'disabled', filter: {}, abort_incomplete_multipart_upload: { days_after_initiation: 30 }, note: 'x' };
    const next = withWholeBucketAbort([logs, theirs], 2);
    expect(next).toEqual([logs, { id: 'ops-team', status: 'enabled', filter: {}, abort_incomplete_multipart_upload: { days_after_initiation: 2 }, note: 'x' }]);
    expect(withWholeBucketAbort(next, null)).toEqual([logs]);
  });

  it('refuses days that are not a whole number of at least 1, and a 101st rule', () => {
    expect(() => withWholeBucketAbort([], 0)).toThrow(RangeError);
    expect(() => withWholeBucketAbort([], 1.5)).toThrow(RangeError);
    const full = Array.from({ length: 100 }, (_, i): LifecycleRule => ({ id: `r${i}`, status: 'enabled', filter: { prefix: `p${i}/` }, expiration: { days: 1 } }));
    expect(() => withWholeBucketAbort(full, 3)).toThrow(/100/);
  });
});
