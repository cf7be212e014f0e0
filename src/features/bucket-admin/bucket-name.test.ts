import { describe, expect, it } from 'vitest';
import { bucketNameProblem } from './bucket-name.ts';

describe('bucketNameProblem', () => {
  it('accepts names of 6–63 lower-case letters, digits and inner hyphens', () => {
    for (const name of ['abcdef', 'my-bucket-01', '0bucket9', 'a'.repeat(63)]) expect(bucketNameProblem(name)).toBeNull();
  });
  it('names the first rule a name breaks', () => {
    expect(bucketNameProblem('abcde')).toBe('admin.name.length');
    expect(bucketNameProblem('a'.repeat(64))).toBe('admin.name.length');
    expect(bucketNameProblem('My-Bucket')).toBe('admin.name.chars');
    expect(bucketNameProblem('my_bucket')).toBe('admin.name.chars');
    expect(bucketNameProblem('my.bucket')).toBe('admin.name.chars');
    expect(bucketNameProblem('-bucket')).toBe('admin.name.ends');
    expect(bucketNameProblem('bucket-')).toBe('admin.name.ends');
  });
});
