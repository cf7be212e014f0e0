/**
 * Node adapter for tests: the emulator behind msw's setupServer, so fetch/XHR/http requests to the QingStor
 * hosts (default domain qingstor.com) are answered in-process.
 *
 *   const { server, emulator } = await setupEmulatorServer({ seed: 'empty' });
 *   beforeAll(() => server.listen({ onUnhandledFrame: 'error' })); afterAll(() => server.close());
 */
import { setupServer, type SetupServer } from 'msw/node';
import { createEmulator, type CreateEmulatorOptions, type Emulator } from './emulator.ts';

export interface EmulatorServer {
  server: SetupServer;
  emulator: Emulator;
}

export async function setupEmulatorServer(options: CreateEmulatorOptions = {}): Promise<EmulatorServer> {
  const emulator = await createEmulator(options);
  return { server: setupServer(...emulator.handlers), emulator };
}
