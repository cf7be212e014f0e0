/**
 * Bodies kept in the database itself (table inline_bodies, see disk.ts): memory chunks (small bodies, seed
 * data) committed with their record, with no file and no fsync per chunk. A chunk written once is stored
 * once while a record points at it; rows written by a transaction that rolls back are forgotten again.
 */
import type { Statements } from './disk-records.ts';

export class InlineBodies {
  /** Memory chunks already stored inline (seed bodies shared by many objects are stored once). */
  private readonly stored = new WeakMap<Uint8Array, string>();
  /** Inline bodies written by the transaction under way (forgotten again if it rolls back). */
  private fresh = new Map<string, Uint8Array>();
  /** Inline bodies loaded back, by name. */
  private readonly cache = new Map<string, Uint8Array>();
  /** Bytes of bodies held in the database. */
  bytes = 0;

  private readonly statements: Pick<Statements, 'putInline' | 'getInline' | 'deleteInline'>;
  private readonly newName: () => string;

  constructor(statements: Pick<Statements, 'putInline' | 'getInline' | 'deleteInline'>, newName: () => string) {
    this.statements = statements;
    this.newName = newName;
  }

  /** Whether this chunk has a row already (writing it again costs no bytes). */
  has(chunk: Uint8Array): boolean {
    return this.stored.get(chunk) !== undefined;
  }

  /** The row name of a chunk: its row while a committed record (`referenced`) or this transaction holds it, else a new row. */
  put(chunk: Uint8Array, referenced: (name: string) => boolean): string {
    let name = this.stored.get(chunk);
    if (name === undefined || !(referenced(name) || this.fresh.has(name))) {
      name = `m${this.newName()}`;
      this.statements.putInline.run(name, chunk);
      this.stored.set(chunk, name);
      this.cache.set(name, chunk);
      this.bytes += chunk.byteLength;
      this.fresh.set(name, chunk);
    }
    return name;
  }

  /** The bytes of a row, read from the database once. */
  read(name: string): Uint8Array {
    let bytes = this.cache.get(name);
    if (bytes === undefined) {
      const row = this.statements.getInline.get(name);
      const value = row?.bytes;
      if (!(value instanceof Uint8Array)) throw new Error(`inline body ${name} is missing`);
      bytes = value;
      this.cache.set(name, bytes);
      // The same array written again (a copy, an append, a Complete of a restored part) keeps its row.
      this.stored.set(bytes, name);
      this.bytes += bytes.byteLength;
    }
    return bytes;
  }

  /** The transaction committed: its rows are kept. */
  committed(): void {
    this.fresh.clear();
  }

  /** The transaction rolled back: its rows are gone, so are they here. */
  rolledBack(): void {
    this.rolledBackTo(0);
  }

  /** Where the rows of the transaction under way stand now (for `rolledBackTo`). */
  mark(): number {
    return this.fresh.size;
  }

  /** One change of the transaction rolled back (to its savepoint): the rows it wrote since `mark` are gone. */
  rolledBackTo(mark: number): void {
    let at = 0;
    for (const [name, chunk] of this.fresh) {
      at += 1;
      if (at <= mark) continue;
      this.stored.delete(chunk);
      this.cache.delete(name);
      this.bytes -= chunk.byteLength;
      this.fresh.delete(name);
    }
  }

  /** Deletes a row nothing points at; false when it could not be written (a full disk: the next start removes it). */
  remove(name: string): boolean {
    const bytes = this.cache.get(name);
    try {
      this.statements.deleteInline.run(name);
    } catch {
      return false;
    }
    this.cache.delete(name);
    if (bytes) this.bytes -= bytes.byteLength;
    return true;
  }
}
