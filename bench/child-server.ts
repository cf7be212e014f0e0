/**
 * Starts a server for a bench in a process of its own (pinned Node from node_modules/.bin) and waits for
 * the line it prints when listening ("… listening on http://127.0.0.1:<port>"), so the bench's client and
 * the server never share an event loop. The child's stdout keeps flowing (and is discarded) afterwards.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

export interface ChildServer {
  child: ChildProcess;
  port: number;
}

export async function startChildServer(
  args: readonly string[],
  options: { timeoutMs?: number; env?: SpawnOptions['env']; what?: string } = {},
): Promise<ChildServer> {
  const what = options.what ?? 'server';
  const timeoutMs = options.timeoutMs ?? 20_000;
  const child = spawn(join(root, 'node_modules/.bin/node'), args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(options.env ? { env: options.env } : {}),
  });
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done(Number(m[1]));
      }
    });
    child.once('exit', (code) => fail(new Error(`${what} exited early with ${code}`)));
  });
  child.stdout?.resume();
  return { child, port };
}
