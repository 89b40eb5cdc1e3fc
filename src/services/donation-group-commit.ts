import type { Kysely } from 'kysely';
import type { DB, NewDonation } from '../infrastructure/db/schema.js';
import {
  insertDonationOnce,
  insertDonationsOnce,
  type StoredDonation,
} from '../infrastructure/repositories/donations.js';

/** Stores one donation once (DESIGN.md §10's natural key) and says what is stored. */
export interface DonationWriter {
  write(donation: NewDonation): Promise<StoredDonation>;
  /** Writes what is waiting and resolves when every write has been answered (the app is closing). */
  close(): Promise<void>;
}

export interface GroupCommitSettings {
  /** Longest a donation waits for others to share its statement. */
  maxWaitMs: number;
  /** Most donations in one statement; a full group is written at once. */
  maxRows: number;
  /** Told the size of every group written (a metric). */
  onGroup?: (rows: number) => void;
}

/** One statement per donation: what group commit turned off means. */
export const directDonationWriter = (db: Kysely<DB>): DonationWriter => ({
  write: (donation) => insertDonationOnce(db, donation),
  close: async () => undefined,
});

interface Waiting {
  donation: NewDonation;
  resolve: (stored: StoredDonation) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: donations arriving within `maxWaitMs` of the first one waiting (or until `maxRows` are waiting)
 * are written by one multi-row statement, so under load many requests share one round trip and one commit instead
 * of paying one each. Each request is answered only when the statement holding its row has committed, with exactly
 * what a statement of its own would have said: the natural key decides between duplicates in a group as between
 * requests, and when the group's statement fails, each row is written again on its own, so one row's error is that
 * row's answer alone (and a database that is down is every row's).
 */
export class DonationGroupCommit implements DonationWriter {
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly settings: GroupCommitSettings,
  ) {}

  write(donation: NewDonation): Promise<StoredDonation> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ donation, resolve, reject });
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

  private async writeGroup(group: Waiting[]): Promise<void> {
    this.settings.onGroup?.(group.length);
    let stored: StoredDonation[];
    try {
      stored = await insertDonationsOnce(
        this.db,
        group.map((w) => w.donation),
      );
    } catch {
      // Which row failed, or whether the database is down, the statement does not say: each row on its own does.
      await Promise.all(group.map((w) => insertDonationOnce(this.db, w.donation).then(w.resolve, w.reject)));
      return;
    }
    group.forEach((w, i) => w.resolve(stored[i]!));
  }
}
