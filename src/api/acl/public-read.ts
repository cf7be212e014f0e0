import { ALL_USERS_GROUP, type AclEntry } from './schemas.ts';

/** Anonymous users may read the bucket's objects: the everyone group holds READ or FULL_CONTROL (ref §9.7). */
export function isPublicRead(acl: readonly AclEntry[]): boolean {
  return acl.some((e) => e.grantee.type === 'group' && e.grantee.name === ALL_USERS_GROUP && (e.permission === 'READ' || e.permission === 'FULL_CONTROL'));
}

/**
 * The ACL with public read switched on or off. PUT ?acl replaces the whole list, so every other grant is
 * sent back unchanged; "off" removes every grant to the everyone group (a WRITE grant too: public write
 * without public read is not a state this switch should leave behind).
 */
export function withPublicRead(acl: readonly AclEntry[], on: boolean): AclEntry[] {
  const others = acl.filter((e) => !(e.grantee.type === 'group' && e.grantee.name === ALL_USERS_GROUP));
  return on ? [...others, { grantee: { type: 'group', name: ALL_USERS_GROUP }, permission: 'READ' }] : others;
}
