/**
 * How many committed records point at each body (a body file, or an inline body's row; see disk.ts). A
 * transaction's changes count once it commits; a gained reference counts at once, a lost one only once the
 * commit that dropped it is flushed (disk and memory agree), and a body left with none is handed to `release`.
 */
export class BodyRefs {
  /** How many committed records point at each body name. */
  private readonly refs = new Map<string, number>();
  /** Reference changes of the transaction in progress, applied when it commits. */
  private deltas: Array<readonly [string, number]> = [];
  /** Bodies that lost a reference in commit `seq`: released once that commit is flushed. */
  private dropped: Array<readonly [number, string]> = [];
  private readonly release: (name: string) => void;

  constructor(release: (name: string) => void) {
    this.release = release;
  }

  has(name: string): boolean {
    return this.refs.has(name);
  }

  /** Starts again from the names the committed records hold, one entry per reference (at start). */
  reset(names: Iterable<string>): ReadonlySet<string> {
    this.refs.clear();
    for (const name of names) this.refs.set(name, (this.refs.get(name) ?? 0) + 1);
    return new Set(this.refs.keys());
  }

  /** Records that `names` gained (+1) or lost (-1) a reference; applied once committed. */
  count(names: readonly string[], delta: 1 | -1): void {
    for (const name of names) this.deltas.push([name, delta]);
  }

  /** The transaction rolled back: its changes never happened. */
  rolledBack(): void {
    this.deltas = [];
  }

  /** Where the changes of the transaction under way stand now (for `rolledBackTo`). */
  mark(): number {
    return this.deltas.length;
  }

  /** One change of the transaction rolled back (to its savepoint): the changes it counted since `mark` never happened. */
  rolledBackTo(mark: number): void {
    this.deltas.length = Math.min(mark, this.deltas.length);
  }

  /** Commit `seq` happened; true when some body now waits for its flush (someone must ask for that flush). */
  committed(seq: number): boolean {
    const deltas = this.deltas;
    this.deltas = [];
    for (const [name, delta] of deltas) {
      if (delta > 0) this.refs.set(name, (this.refs.get(name) ?? 0) + 1);
      else this.dropped.push([seq, name]);
    }
    return this.dropped.length > 0;
  }

  /** Commits up to `seq` are on the disk: the references they dropped go, and bodies left with none are released. */
  flushed(seq: number): void {
    const keep: Array<readonly [number, string]> = [];
    for (const entry of this.dropped) {
      const [at, name] = entry;
      if (at > seq) {
        keep.push(entry);
        continue;
      }
      const n = (this.refs.get(name) ?? 0) - 1;
      if (n > 0) this.refs.set(name, n);
      else {
        this.refs.delete(name);
        this.release(name);
      }
    }
    this.dropped = keep;
  }
}
