import { describe, expect, it } from 'vitest';
import { signRequest } from '../../src/api/signing.ts';
import { OWNER, createBucket, errorOf, send, sendRequest, testEmulator, ZONE_URL } from './test-utils.ts';

/** A body that delivers some bytes, then fails the way node:http does when the client hangs up. */
function bodyThatAborts(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new DOMException('The client closed the connection', 'AbortError'));
        return;
      }
      sent = true;
      controller.enqueue(new TextEncoder().encode('partial'));
    },
  });
}

describe('a client that disconnects mid-body', () => {
  it('gets incomplete_body and nothing is written', async () => {
    const emulator = await testEmulator();
    await createBucket(emulator, 'abort-bucket');
    const url = new URL(`${ZONE_URL}/abort-bucket/half-written.bin`);
    // Node needs duplex: 'half' for a streamed request body; the DOM typings do not know the option.
    const init: RequestInit & { duplex: 'half' } = {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: bodyThatAborts(),
      duplex: 'half',
    };
    const request = new Request(url, init);
    await signRequest({ method: 'PUT', url, headers: request.headers, credentials: OWNER });

    const response = await sendRequest(emulator, request);
    expect(await errorOf(response)).toEqual({ status: 400, code: 'incomplete_body', requestIdMatches: true });

    const head = await send(emulator, 'HEAD', '/abort-bucket/half-written.bin');
    expect(head.status).toBe(404);
  });
});
