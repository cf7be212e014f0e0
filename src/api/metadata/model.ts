/**
 * Formerly the one door to the metadata model; its users now import each name from the module that
 * declares it: the types (types.ts), the rules (rules.ts), the mapping to and from headers
 * (header-mapping.ts), the zod schemas (schemas.ts) and the protocol facts (../protocol/).
 *
 * Left only for the emulator's store (mocks/store/state.ts, record-schemas.ts), which is being rewritten on
 * another branch: once it imports setEntry from header-mapping.ts, delete this file.
 */
export { setEntry } from './header-mapping.ts';
