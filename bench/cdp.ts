/**
 * Chromium driven over the DevTools protocol with nothing switched on but pages and script evaluation.
 *
 * Playwright enables the Network domain of every page it drives (it reports each request and can route it),
 * so every request the page sends is also described to the driver; for a bench of thousands of small
 * requests that work is a large share of the browser's own (measured here: the browser process spent about
 * twice as much CPU per request). A user's browser does none of it, so the benches that count requests drive
 * the page through this instead; Playwright still sets things up where convenient.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

const messageSchema = z.object({
  id: z.number().optional(),
  method: z.string().optional(),
  result: z.unknown().optional(),
  error: z.object({ message: z.string() }).optional(),
});

const evaluationSchema = z.object({
  result: z.object({ value: z.unknown().optional() }),
  exceptionDetails: z.object({ text: z.string(), exception: z.object({ description: z.string().optional() }).optional() }).optional(),
});

/** One DevTools connection (the browser's or a page's). */
class Connection {
  readonly #socket: WebSocket;
  #next = 0;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #listeners = new Map<string, Array<() => void>>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener('message', (event) => {
      const message = messageSchema.parse(JSON.parse(String(event.data)));
      if (message.id !== undefined) {
        const waiting = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(message.error.message));
        else waiting?.resolve(message.result);
      } else if (message.method) {
        const listeners = this.#listeners.get(message.method) ?? [];
        this.#listeners.delete(message.method);
        for (const listener of listeners) listener();
      }
    });
  }

  static async open(url: string): Promise<Connection> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`DevTools: cannot connect to ${url}`)), { once: true });
    });
    return new Connection(socket);
  }

  send(method: string, params: object = {}): Promise<unknown> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Resolves at the next event named `method`. */
  once(method: string): Promise<void> {
    return new Promise((resolve) => this.#listeners.set(method, [...(this.#listeners.get(method) ?? []), resolve]));
  }

  close(): void {
    this.#socket.close();
  }
}

export interface CdpPage {
  /** Runs `fn(arg)` in the page and resolves with its (awaited, JSON-serialisable) result, checked by `schema`. */
  evaluate<A, S extends z.ZodType>(schema: S, fn: (arg: A) => unknown, arg: A): Promise<z.output<S>>;
  /** Runs `fn(arg)` in every document this page loads from now on, before its own scripts. */
  addInitScript<A>(fn: (arg: A) => void, arg: A): Promise<void>;
  /** Navigates and waits for the load event. */
  goto(url: string): Promise<void>;
  close(): Promise<void>;
}

export interface CdpBrowser {
  newPage(): Promise<CdpPage>;
  /** Process ids of the browser and its helper processes (for CPU accounting). */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

export async function launchCdp(executablePath: string, args: readonly string[]): Promise<CdpBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'qsc-bench-'));
  const child: ChildProcess = spawn(executablePath, ['--headless', ...args, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr = child.stderr;
  if (!stderr) throw new Error('chromium: no stderr');
  const endpoint = await new Promise<string>((resolve, reject) => {
    createInterface({ input: stderr }).on('line', (line) => {
      const match = /DevTools listening on (ws:\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`chromium exited with ${String(code)} before listening`)));
  });
  const port = new URL(endpoint).port;
  const browser = await Connection.open(endpoint);
  return {
    pid: child.pid,
    async newPage() {
      const created = z.object({ targetId: z.string() }).parse(await browser.send('Target.createTarget', { url: 'about:blank' }));
      const page = await Connection.open(`ws://127.0.0.1:${port}/devtools/page/${created.targetId}`);
      await page.send('Page.enable');
      return {
        async evaluate<A, S extends z.ZodType>(schema: S, fn: (arg: A) => unknown, arg: A): Promise<z.output<S>> {
          const answer = evaluationSchema.parse(await page.send('Runtime.evaluate', { expression: `(${fn.toString()})(${JSON.stringify(arg)})`, awaitPromise: true, returnByValue: true }));
          if (answer.exceptionDetails) throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
          return schema.parse(answer.result.value);
        },
        async addInitScript<A>(fn: (arg: A) => void, arg: A) {
          await page.send('Page.addScriptToEvaluateOnNewDocument', { source: `(${fn.toString()})(${JSON.stringify(arg)})` });
        },
        async goto(url: string) {
          const loaded = page.once('Page.loadEventFired');
          await page.send('Page.navigate', { url });
          await loaded;
        },
        async close() {
          page.close();
          await browser.send('Target.closeTarget', { targetId: created.targetId });
        },
      };
    },
    async close() {
      browser.close();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
