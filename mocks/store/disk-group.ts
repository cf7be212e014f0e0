/**
 * The group commit of the on-disk journal (disk.ts): the changes made while one flush of the WAL runs share
 * one SQLite transaction, committed when the next flush starts. Each change is a savepoint of that
 * transaction, so one change that fails is rolled back alone and the others of its group stay. Committing
 * dozens of changes at once writes each page they share once (a 1 KiB PUT changes about six pages: the
 * object's row, its body's row and their indexes), instead of once per change.
 *
 * A group whose COMMIT fails (after the space reserve was given back for one more try, as disk.ts does for
 * a full disk) is rolled back whole and `failed` is set: every request waiting for that flush, and every
 * later one, is answered with it (a QingStor error), because memory holds changes the disk does not. A
 * restart reads the disk again. Node only.
 */
import type { DatabaseSync } from 'node:sqlite';
import { QsError } from '../errors.ts';
import type { DiskSpace } from './disk-space.ts';
import { isOutOfSpace } from './disk-sync.ts';

export interface GroupHooks {
  /** Marks the journal's bookkeeping of the transaction under way; calling what it returns rolls it back to the mark. */
  mark(): () => void;
  /** The group's transaction committed; `seq` is the number of changes it covers (`changes`). */
  committed(seq: number): void;
  /** The group's transaction rolled back whole. */
  rolledBack(): void;
}

export class GroupCommit {
  /** Changes written so far (savepoints released); the next commit covers them all. */
  changes = 0;
  /** Set once a group's commit failed: memory and disk differ until a restart. */
  failed: QsError | undefined;
  private readonly db: DatabaseSync;
  private readonly space: DiskSpace;
  private readonly hooks: GroupHooks;
  /** `changes` when the group's transaction began. */
  private groupStart = 0;
  private undo: (() => void) | undefined;
  /** A test's stand-in for COMMIT (to make it fail). */
  commitStatement: () => void;

  constructor(db: DatabaseSync, space: DiskSpace, hooks: GroupHooks) {
    this.db = db;
    this.space = space;
    this.hooks = hooks;
    this.commitStatement = () => this.db.exec('COMMIT');
  }

  /** Starts one change: the group's transaction if none is open, and a savepoint in it. */
  begin(): void {
    if (!this.db.isTransaction) {
      this.db.exec('BEGIN IMMEDIATE');
      this.groupStart = this.changes;
    }
    this.db.exec('SAVEPOINT change');
    this.undo = this.hooks.mark();
  }

  /** The change under way is written whole: it joins the group. */
  release(): void {
    this.db.exec('RELEASE change');
    this.undo = undefined;
    this.changes += 1;
  }

  /** The change under way failed: it alone is rolled back (the whole group if SQLite rolled that back itself). */
  rollBack(): void {
    const undo = this.undo;
    this.undo = undefined;
    if (this.db.isTransaction) {
      this.db.exec('ROLLBACK TO change');
      this.db.exec('RELEASE change');
      undo?.();
      return;
    }
    // SQLite ended the transaction on the error (a full disk or an I/O error can): the group's other changes are gone too.
    this.hooks.rolledBack();
    if (this.changes > this.groupStart) this.fail(new Error('the transaction was rolled back by SQLite'));
  }

  /** Commits the group's transaction, if one is open; throws (and sets `failed`) when it cannot be committed. */
  commit(): void {
    if (this.failed) throw this.failed;
    if (!this.db.isTransaction) return;
    try {
      this.commitOnce();
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      this.hooks.rolledBack();
      throw this.fail(error);
    }
    this.hooks.committed(this.changes);
  }

  private commitOnce(): void {
    try {
      this.commitStatement();
    } catch (error) {
      // A full disk at COMMIT (another process filled it since the check): give the reserve back and retry once.
      if (!(isOutOfSpace(error) && this.db.isTransaction && this.space.reserve.release())) throw error;
      this.space.onFull();
      this.commitStatement();
    }
  }

  private fail(cause: unknown): QsError {
    const full = isOutOfSpace(cause);
    const reason = full ? 'its disk is full' : cause instanceof Error ? cause.message : String(cause);
    this.failed = new QsError(
      'service_unavailable',
      `The emulator could not save a group of changes to its data directory (${reason}); none of them was kept. Restart the emulator to continue.`,
    );
    this.failed.cause = cause;
    return this.failed;
  }
}
