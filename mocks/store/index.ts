/** Public entry of the in-memory QingStor backend; see types.ts for the conventions. */
export { Store } from './store.ts';
export * from './types.ts';
export { makeBody, joinBodies, readBodyRange, bodyToBytes, bodyToStream, EMPTY_BODY } from './body.ts';
