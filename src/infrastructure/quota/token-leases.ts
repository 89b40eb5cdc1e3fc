/** Adds `requests` to one window's counter and returns the counter's new total. */
export type IncrementBy = (key: string, windowStart: number, windowMs: number, requests: number) => Promise<number>;

export interface LeaseSettings {
  /** Tokens are claimed ahead for this long of the partner's recent rate of checks. */
  leaseMs: number;
  /** The most tokens one statement claims beyond the checks waiting for it. */
  maxLease: number;
  /**
   * An instance claims at most 1/`headroomShare` of what is left of a quota beyond the checks waiting, so that the
   * tokens instances hold unused while another meets the limit stay a small share of the quota.
   */
  headroomShare: number;
}

/**
 * A quarter of a second of a partner's rate, refilled at half: a partner at tens of thousands of requests a second
 * costs about eight statements a second, not eighty, each an upsert and a commit in PostgreSQL beside the requests
 * (docs/decisions/0082-request-path-budget.md). Exactness near the limit is the headroom share's, not this.
 */
const DEFAULT_LEASE_SETTINGS: LeaseSettings = { leaseMs: 250, maxLease: 10_000, headroomShare: 32 };

interface Waiter {
  resolve(count: number): void;
  reject(error: unknown): void;
}

/** One counter (a partner's window) as this instance sees it. */
interface Counter {
  key: string;
  windowStart: number;
  windowMs: number;
  /** Claimed tokens not handed out yet, as ranges of counts (from, to], oldest first. */
  leased: { from: number; to: number }[];
  /** Checks waiting for the statement after the one in flight. */
  waiters: Waiter[];
  inFlight: boolean;
  /** Checks since the last statement was sent, and when that was: the partner's recent rate. */
  arrivals: number;
  sentAt: number;
  /** The counter's total as the last statement returned it (every instance's count then). */
  lastTotal: number;
  /** Tokens the last statement claimed beyond its waiters; a refill goes out when half are used. */
  lastLease: number;
  /** Checks answered over the limit without a statement since `lastTotal` said the window is spent. */
  overLimit: number;
}

/**
 * Quota tokens claimed from the shared counter (PostgreSQL or Redis) ahead of need, so that under load most checks
 * are answered from this instance's lease without a round trip, while no instance can ever admit a request the
 * shared count did not grant.
 *
 * Why: every request of a partner updates that partner's one counter; at tens of thousands of requests per second,
 * even one statement per round trip of waiting checks was a tenth of GET /ping's CPU on PostgreSQL (bench profile).
 *
 * How it stays exact:
 * - A token is a count of the shared counter: a statement adding n returns the total T, and the counts T-n+1 … T
 *   are this instance's, handed to its checks in order. A check's count is the count an increment of its own would
 *   have returned had the requests been counted in that order, so a check is admitted only if its token is within
 *   the quota, and the quota's requests are admitted across all instances no more than the quota allows.
 * - What an instance claims ahead is `leaseMs` of the partner's recent rate of checks here, never more than
 *   1/`headroomShare` of what was left of the quota, nor `maxLease`: a partner sending fewer than one request per
 *   `leaseMs` claims nothing ahead, and near the limit every check is counted one by one, as without leases. The
 *   tokens an instance holds unused when another meets the limit are at most that share: the others answer 429 at
 *   most that much early. A new lease is claimed when half of the last is used, before it runs out.
 * - Once a statement's total says the window is spent (≥ the quota), checks are answered over the limit here: the
 *   total of a window never goes down, so no statement could say otherwise (a quota raised meanwhile is checked
 *   against the same total and goes back to the store).
 *
 * The first check with nothing leased goes out at once; checks that arrive while a statement is in flight wait for
 * the next one, sent as one `count + n` when it returns.
 */
export class TokenLeases {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly incrementBy: IncrementBy,
    private readonly settings: LeaseSettings = DEFAULT_LEASE_SETTINGS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The count of one check: a number when this instance can answer at once, a promise when the store must. */
  take(key: string, windowStart: number, windowMs: number, limit: number): number | Promise<number> {
    const counter = this.counter(key, windowStart, windowMs);
    counter.arrivals += 1;
    const leased = this.fromLease(counter);
    if (leased !== null) {
      if (this.leaseRunningLow(counter)) this.send(counter, limit);
      return leased;
    }
    if (counter.lastTotal >= limit && !counter.inFlight) {
      counter.overLimit += 1;
      return counter.lastTotal + counter.overLimit;
    }
    return new Promise<number>((resolve, reject) => {
      counter.waiters.push({ resolve, reject });
      if (!counter.inFlight) this.send(counter, limit);
    });
  }

  /** Forgets every counter (the store is stopping). */
  clear(): void {
    this.counters.clear();
  }

  private counter(key: string, windowStart: number, windowMs: number): Counter {
    let counter = this.counters.get(key);
    // A new window replaces the last: what was leased there is void, and the map never outgrows the partners.
    if (counter?.windowStart !== windowStart) {
      counter = {
        key,
        windowStart,
        windowMs,
        leased: [],
        waiters: [],
        inFlight: false,
        arrivals: 0,
        // No rate is known yet: the first statement of a window claims nothing ahead.
        sentAt: -Infinity,
        lastTotal: 0,
        lastLease: 0,
        overLimit: 0,
      };
      this.counters.set(key, counter);
    }
    return counter;
  }

  private fromLease(counter: Counter): number | null {
    const range = counter.leased[0];
    if (!range) return null;
    range.from += 1;
    if (range.from === range.to) counter.leased.shift();
    return range.from;
  }

  private leaseRunningLow(counter: Counter): boolean {
    if (counter.inFlight) return false;
    const left = counter.leased.reduce((sum, range) => sum + range.to - range.from, 0);
    return left * 2 <= counter.lastLease;
  }

  private send(counter: Counter, limit: number): void {
    const waiters = counter.waiters;
    const now = this.now();
    const { leaseMs, headroomShare, maxLease } = this.settings;
    const demand = Math.floor((counter.arrivals * leaseMs) / Math.max(now - counter.sentAt, 1));
    const headroom = Math.floor((limit - counter.lastTotal - waiters.length) / headroomShare);
    const ahead = Math.max(0, Math.min(demand, headroom, maxLease));
    const size = waiters.length + ahead;
    if (size === 0) return;
    counter.waiters = [];
    counter.arrivals = 0;
    counter.sentAt = now;
    counter.inFlight = true;
    this.incrementBy(counter.key, counter.windowStart, counter.windowMs, size)
      .then(
        (total) => {
          counter.lastTotal = Math.max(counter.lastTotal, total);
          counter.lastLease = ahead;
          const first = total - size;
          waiters.forEach((waiter, i) => waiter.resolve(first + 1 + i));
          if (ahead > 0) counter.leased.push({ from: first + waiters.length, to: total });
        },
        (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => {
        counter.inFlight = false;
        // Checks that waited behind a statement that brought a lease take their tokens from it.
        while (counter.waiters.length > 0 && counter.leased.length > 0)
          counter.waiters.shift()!.resolve(this.fromLease(counter)!);
        if (counter.waiters.length > 0) this.send(counter, limit);
      });
  }
}
