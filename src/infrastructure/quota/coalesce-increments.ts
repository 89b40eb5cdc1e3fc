/** Adds `requests` to one window's counter and returns the counter's new total. */
export type IncrementBy = (key: string, windowStart: number, windowMs: number, requests: number) => Promise<number>;

interface Waiter {
  resolve(count: number): void;
  reject(error: unknown): void;
}

interface Pending {
  key: string;
  windowStart: number;
  windowMs: number;
  waiters: Waiter[];
}

/**
 * One statement in flight per counter: the checks of one partner's window that arrive while an increment of that
 * window is on its way to the database are added together and sent as one `count + n` when it returns.
 *
 * Why: every request of a partner updates the same row, so on PostgreSQL the increments queue on its row lock, one
 * commit each, and the partner's throughput is bounded by commit latency. Added together, a burst costs one round
 * trip and one commit. Still exact: a group of n that brings the total to T hands its checks T-n+1 … T, the very
 * counts n increments one after the other would have returned. A check with nothing in flight goes out at once.
 */
export function coalesceIncrements(incrementBy: IncrementBy) {
  const pending = new Map<string, Pending>();
  const inFlight = new Set<string>();

  const send = (id: string): void => {
    const group = pending.get(id);
    if (!group) return;
    pending.delete(id);
    inFlight.add(id);
    const size = group.waiters.length;
    incrementBy(group.key, group.windowStart, group.windowMs, size)
      .then(
        (total) => group.waiters.forEach((waiter, i) => waiter.resolve(total - size + 1 + i)),
        (error: unknown) => group.waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => {
        inFlight.delete(id);
        send(id);
      });
  };

  return (key: string, windowStart: number, windowMs: number): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      const id = `${key}@${windowStart}`;
      const group = pending.get(id) ?? { key, windowStart, windowMs, waiters: [] };
      group.waiters.push({ resolve, reject });
      pending.set(id, group);
      if (!inFlight.has(id)) send(id);
    });
}
