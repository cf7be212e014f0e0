/**
 * The service's numeric limits (ref §8, §12 and the sections named below). One definition for the console
 * and the emulator; where the two deliberately read a limit differently, both readings are here.
 */

const MiB = 1024 * 1024;

/** Object keys: 1 to 1023 bytes of UTF-8 (ref §1.3, §11.15). */
export const MAX_KEY_BYTES = 1023;

/** Part numbers are integers 0..MAX_PART_NUMBER (ref §8). */
export const MAX_PART_NUMBER = 10_000;
/** At most this many parts in one upload (ref §8, §12); numbers 0..10000 would allow one more. */
export const MAX_PARTS = 10_000;
/** Every part but the last must be at least this large at Complete on QingStor (ref §8.5). */
export const MIN_PART_SIZE = 4 * MiB;
/**
 * Largest single PUT, part or append (ref §5.1, §8): "5 GB", read as 5 GiB, the larger reading, so the
 * emulator never refuses what the service might accept and the console never plans a part above it.
 */
export const MAX_OBJECT_SIZE = 5 * 1024 * MiB;
/** Largest part of a multipart upload (ref §8): the same "5 GB", read the same way. */
export const MAX_PART_SIZE = 5 * 1024 * MiB;
/**
 * Largest source of one PUT-copy and range of one part copy as the console assumes it (ref §5.2, §8.3):
 * "5 GB" read as 5·10⁹ bytes, the smaller reading, so the console never sends a single copy the service
 * might refuse. The emulator's default copy limit is MAX_OBJECT_SIZE (the larger reading) on purpose.
 */
export const QINGSTOR_COPY_LIMIT = 5_000_000_000;

/** Custom metadata (ref §6): a key (without the prefix) at most 512 bytes; Σ(len(key) + len(value)) at most 2048. */
export const METADATA_KEY_MAX_BYTES = 512;
export const METADATA_TOTAL_MAX_BYTES = 2048;

/** Keys in one DeleteMultipleObjects request (ref §5.9). */
export const MAX_DELETE_OBJECTS = 1000;
/** Largest `limit` of ListMultipart (ref §8.4) and of ListMultipartUploads (ref §8.7). */
export const MAX_LIST_PARTS_LIMIT = 1000;
export const MAX_LIST_UPLOADS_LIMIT = 1000;
/** Largest `limit` of ListObjects on the real service (ref §12); the emulator clamps to it by default. */
export const MAX_LIST_OBJECTS_LIMIT = 100;
/** Lifecycle rules per bucket (ref §9.10). */
export const MAX_LIFECYCLE_RULES = 100;

/**
 * Longest lifetime of a pre-signed URL the emulator accepts (ref §2.5): `expires` at most this many seconds
 * after the server's clock, plus the 15-minute clock allowance of header signatures (PRESIGNED_CLOCK_SKEW_SECONDS).
 * Seven days is also the longest link the console offers.
 */
export const MAX_PRESIGNED_URL_SECONDS = 7 * 24 * 3600;
/** Clock difference tolerated between a signer and the server (ref §2.4): 15 minutes. */
export const PRESIGNED_CLOCK_SKEW_SECONDS = 15 * 60;
