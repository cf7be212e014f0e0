import { describe, expect, it } from 'vitest';
import type { AclEntry } from '../../api/acl/schemas.ts';
import { isPublicRead, withPublicRead } from './public-read.ts';

const owner: AclEntry = { grantee: { type: 'user', id: 'usr-owner', name: 'owner' }, permission: 'FULL_CONTROL' };
const everyoneRead: AclEntry = { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'READ' };
const everyoneWrite: AclEntry = { grantee: { type: 'group', name: 'QS_ALL_USERS' }, permission: 'WRITE' };

describe('public read in a bucket ACL', () => {
  it('is on only with READ or FULL_CONTROL for the everyone group', () => {
    expect(isPublicRead([owner])).toBe(false);
    expect(isPublicRead([owner, everyoneWrite])).toBe(false);
    expect(isPublicRead([owner, everyoneRead])).toBe(true);
    expect(isPublicRead([{ ...everyoneRead, permission: 'FULL_CONTROL' }])).toBe(true);
  });
  it('switching keeps every other grant and leaves no everyone grant when off', () => {
    expect(withPublicRead([owner], true)).toEqual([owner, everyoneRead]);
    expect(withPublicRead([owner, everyoneRead, everyoneWrite], false)).toEqual([owner]);
    expect(withPublicRead([owner, everyoneRead], true)).toEqual([owner, everyoneRead]);
  });
});
