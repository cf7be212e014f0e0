import { mutationOptions } from '@tanstack/react-query';
import type { QsClient } from '../client.ts';
import { demoLinkOnOrigin } from '../demo-link.ts';
import { qsRootKey } from '../service/queries.ts';
import { getObjectUrl, type GetObjectUrlInput } from './read.ts';

// Apart from queries.ts: links are made in the details panel, which loads after the first rows, and
// pre-signing is code the list does not need.

/**
 * A pre-signed link to one object (ref §2.5), made when asked for: the details panel's Download and its Share
 * tab. It writes nothing, so it invalidates nothing; `until` is when the link stops working by the client's
 * clock. With `origin` (demo mode) the link is moved onto the console's own origin, where the demo's service
 * worker answers it (demo-link.ts): the demo host never resolves for the browser.
 */
export function objectLinkMutation(client: QsClient) {
  return mutationOptions({
    mutationKey: [...qsRootKey(client), 'objectLink'],
    mutationFn: async ({ origin, ...input }: GetObjectUrlInput & { origin?: string | undefined }) => {
      const url = await getObjectUrl(client, input);
      return { url: origin === undefined ? url : demoLinkOnOrigin(url, origin), until: new Date(client.now().getTime() + input.expiresIn * 1000) };
    },
  });
}
