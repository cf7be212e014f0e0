import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import type { ObjectRef, QsClient } from '../client.ts';
import { objectMetadataSaved } from '../objects/queries.ts';
import { qsRootKey } from '../service/queries.ts';
import { saveMetadataEdits, type SaveInput, type SaveResult } from './save.ts';

/**
 * The metadata writes as React Query sees them. A save and an undo of it (which is a save of the edits
 * back) refresh the same things, here: the object's details from the version the save read back (or
 * the other client's version a conflict found) and its listings (objectMetadataSaved).
 */

/** What a save or an undo of one changes on screen: the details and listings of `ref`, from `result`. */
export function metadataSaveSettled(queryClient: QueryClient, client: QsClient, ref: ObjectRef, result: SaveResult) {
  return objectMetadataSaved(queryClient, client, ref, result.kind === 'saved' ? result.after : result.theirs);
}

/**
 * Saves metadata edits against the version they were made on (saveMetadataEdits: conditional, read back).
 * A conflict is a result, not an error: the details then show the other client's version. `onResult`
 * (the editor's next step, its toast) runs first, then the refresh, whether or not the caller is still
 * mounted: a save that finishes after its dialog closed still reports itself and refreshes the details.
 */
export function saveMetadataMutation(client: QsClient, queryClient: QueryClient, onResult?: (result: SaveResult, input: SaveInput) => void) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'saveMetadata'],
    mutationFn: (input: SaveInput) => saveMetadataEdits(client, input),
    onSuccess: async (result, input) => {
      onResult?.(result, input);
      await metadataSaveSettled(queryClient, client, input.ref, result);
    },
  });
}
