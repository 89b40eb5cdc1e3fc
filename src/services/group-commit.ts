/** Writes one row and says what is stored; `close` answers whatever still waits (the app is closing). */
export interface RowWriter<Row, Stored> {
  write(row: Row): Promise<Stored>;
  close(): Promise<void>;
}

export interface GroupCommitSettings {
  /** Longest a row waits for others to share its statement. */
  maxWaitMs: number;
  /** Most rows in one statement; a full group is written at once. */
  maxRows: number;
  /** Told the size of every group written (a metric). */
  onGroup?: (rows: number) => void;
}

/** How a group is written: one statement for all of it, and one row alone (what a failed group falls back to). */
export interface GroupStatements<Row, Stored> {
  /** Answers each row, in the order given. */
  many(rows: Row[]): Promise<Stored[]>;
  one(row: Row): Promise<Stored>;
}

/** Group commit with `settings`, or one statement per row (`null`: group commit turned off). */
export function rowWriter<Row, Stored>(
  statements: GroupStatements<Row, Stored>,
  settings: GroupCommitSettings | null,
): RowWriter<Row, Stored> {
  if (settings) return new GroupCommit(statements, settings);
  return { write: (row) => statements.one(row), close: async () => undefined };
}

interface Waiting<Row, Stored> {
  row: Row;
  resolve: (stored: Stored) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: rows arriving within `maxWaitMs` of the first one waiting (or until `maxRows` are waiting) are
 * written by one multi-row statement, so under load many requests share one round trip and one commit instead of
 * paying one each. Each request is answered only when the statement holding its row has committed, with exactly
 * what a statement of its own would have said: when the group's statement fails, each row is written again on its
 * own, so one row's error is that row's answer alone (and a database that is down is every row's).
 */
class GroupCommit<Row, Stored> implements RowWriter<Row, Stored> {
  private waiting: Waiting<Row, Stored>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly statements: GroupStatements<Row, Stored>,
    private readonly settings: GroupCommitSettings,
  ) {}

  write(row: Row): Promise<Stored> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      // Once closing, nothing waits: the database closes right after the app.
      if (this.closing || this.waiting.length >= this.settings.maxRows) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.settings.maxWaitMs);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    this.flush();
    await Promise.all([...this.inFlight]);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const group = this.waiting;
    this.waiting = [];
    if (group.length === 0) return;
    const done = this.writeGroup(group).finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }

  private async writeGroup(group: Waiting<Row, Stored>[]): Promise<void> {
    this.settings.onGroup?.(group.length);
    let stored: Stored[];
    try {
      stored = await this.statements.many(group.map((w) => w.row));
    } catch {
      // Which row failed, or whether the database is down, the statement does not say: each row on its own does.
      await Promise.all(group.map((w) => this.statements.one(w.row).then(w.resolve, w.reject)));
      return;
    }
    group.forEach((w, i) => w.resolve(stored[i]!));
  }
}
