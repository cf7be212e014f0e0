/** Public entry of the in-memory QingStor backend; see types.ts for the conventions. */
export { Store, normalizeMetadata } from './store.ts';
export * from './types.ts';
export { makeBody, joinBodies, readBodyRange, bodyToBytes, bodyToStream, EMPTY_BODY, isFileSegment, segmentBytes } from './body.ts';
export { compareKeys, utf8ByteLength, checkObjectKey, isValidBucketName, checkBucketName } from './keys.ts';
export { hexToBase64 } from './md5.ts';
export { applyLifecycle, lifecycleIdle, lifecycleProgress, LIFECYCLE_DELAY_MS, type LifecycleProgress, type LifecycleSweep } from './lifecycle.ts';
