import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenLeases, type LeaseSettings } from '../../src/infrastructure/quota/token-leases.js';

/**
 * A shared counter whose statements complete only when the test releases them (in any order), recording each
 * statement's size: what PostgreSQL or Redis is to each instance's leases.
 */
function heldCounter() {
  const totals = new Map<string, number>();
  const sent: number[] = [];
  const held: Array<() => void> = [];
  let failNext = false;
  const incrementBy = (key: string, windowStart: number, _ms: number, requests: number) =>
    new Promise<number>((resolve, reject) => {
      sent.push(requests);
      held.push(() => {
        if (failNext) {
          failNext = false;
          return reject(new Error('connection lost'));
        }
        const id = `${key}@${windowStart}`;
        totals.set(id, (totals.get(id) ?? 0) + requests);
        resolve(totals.get(id)!);
      });
    });
  const release = async (index = 0) => {
    held.splice(index, 1)[0]!();
    await new Promise((r) => setImmediate(r));
  };
  return {
    incrementBy,
    sent,
    held,
    release,
    releaseOne: () => release(0),
    failNextStatement: () => (failNext = true),
    total: (key: string, windowStart = 0) => totals.get(`${key}@${windowStart}`) ?? 0,
  };
}

/** The counts of checks answered at once (numbers) or by a statement (promises), in order. */
const settled = (taken: Array<number | Promise<number>>) => Promise.all(taken.map((t) => Promise.resolve(t)));

const NO_LEASES: LeaseSettings = { leaseMs: 0, maxLease: 1000, headroomShare: 32 };
const LEASES: LeaseSettings = { leaseMs: 25, maxLease: 1000, headroomShare: 32 };
const LIMIT = 1_000_000;

describe('TokenLeases without claiming ahead: checks that arrive together share one statement', () => {
  it('sends the first check at once and the checks that arrive meanwhile as one statement, each with its own count', async () => {
    const counter = heldCounter();
    const leases = new TokenLeases(counter.incrementBy, NO_LEASES);
    const answers = Array.from({ length: 5 }, () => leases.take('partner-a', 0, 1000, LIMIT));
    expect(counter.sent).toEqual([1]);
    await counter.releaseOne();
    expect(counter.sent).toEqual([1, 4]);
    await counter.releaseOne();
    expect(await settled(answers)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps windows and partners apart', async () => {
    const counter = heldCounter();
    const leases = new TokenLeases(counter.incrementBy, NO_LEASES);
    const a = leases.take('partner-a', 0, 1000, LIMIT);
    const b = leases.take('partner-b', 0, 1000, LIMIT);
    const nextWindow = leases.take('partner-a', 1000, 1000, LIMIT);
    expect(counter.sent).toEqual([1, 1, 1]);
    for (let i = 0; i < 3; i += 1) await counter.releaseOne();
    expect(await settled([a, b, nextWindow])).toEqual([1, 1, 1]);
  });

  it('fails every check of a failed statement, and the next group is sent regardless', async () => {
    const counter = heldCounter();
    const leases = new TokenLeases(counter.incrementBy, NO_LEASES);
    const first = leases.take('partner-a', 0, 1000, LIMIT);
    counter.failNextStatement();
    const group = [leases.take('partner-a', 0, 1000, LIMIT), leases.take('partner-a', 0, 1000, LIMIT)];
    const firstFails = expect(first).rejects.toThrow('connection lost');
    await counter.releaseOne();
    await firstFails;
    expect(counter.sent).toEqual([1, 2]);
    const later = leases.take('partner-a', 0, 1000, LIMIT);
    await counter.releaseOne();
    expect(await settled(group)).toEqual([1, 2]);
    await counter.releaseOne();
    expect(await later).toBe(3);
  });
});

describe('TokenLeases claiming ahead', () => {
  it("claims the partner's recent rate ahead, then answers at once from the lease with consecutive counts", async () => {
    const counter = heldCounter();
    let now = 0;
    const leases = new TokenLeases(counter.incrementBy, LEASES, () => now);
    // The first check goes alone (no rate known yet); the nine that wait for it came within 1 ms: 25 ms of that
    // rate (225) is claimed ahead with them.
    const first = Array.from({ length: 10 }, () => leases.take('partner-a', 0, 60_000, LIMIT));
    expect(counter.sent).toEqual([1]);
    now = 1;
    await counter.releaseOne();
    expect(counter.sent).toEqual([1, 9 + 225]);
    await counter.releaseOne();
    expect(await settled(first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const answered = Array.from({ length: 100 }, () => leases.take('partner-a', 0, 60_000, LIMIT));
    expect(answered).toEqual(Array.from({ length: 100 }, (_, i) => 11 + i));
    expect(counter.sent).toHaveLength(2);
  });

  it('claims the next lease when half of the last is used, before it runs out', async () => {
    const counter = heldCounter();
    let now = 0;
    const leases = new TokenLeases(counter.incrementBy, { ...LEASES, leaseMs: 10 }, () => now);
    const first = [leases.take('p', 0, 60_000, LIMIT), leases.take('p', 0, 60_000, LIMIT)];
    now = 1;
    await counter.releaseOne();
    await counter.releaseOne(); // 1 waiter + 10 ahead (1 check per ms, for 10 ms)
    expect(counter.sent).toEqual([1, 11]);
    await settled(first);
    const answers: Array<number | Promise<number>> = [];
    for (let i = 0; i < 5; i += 1) answers.push(leases.take('p', 0, 60_000, LIMIT));
    expect(counter.sent).toHaveLength(3); // half of the 10 used: the refill is on its way
    for (let i = 0; i < 5; i += 1) answers.push(leases.take('p', 0, 60_000, LIMIT));
    expect(answers).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    await counter.releaseOne();
    const next = leases.take('p', 0, 60_000, LIMIT);
    expect(next).toBe(counter.total('p') - counter.sent[2]! + 1);
  });

  it('claims at most 1/headroomShare of what is left of the quota, and nothing ahead near the limit', async () => {
    const counter = heldCounter();
    let now = 0;
    const limit = 100;
    const leases = new TokenLeases(counter.incrementBy, LEASES, () => now);
    const burst = Array.from({ length: 50 }, () => leases.take('p', 0, 60_000, limit));
    now = 1;
    await counter.releaseOne();
    // 49 waiting, 100 - 1 - 49 = 50 left beyond them: 50 / 32 = 1 ahead, whatever the rate says.
    expect(counter.sent).toEqual([1, 50]);
    await counter.releaseOne();
    await settled(burst);
    // 51 counted (the last one leased here): from now on at most 49 / 32 = 1 ahead, and nothing below 32 left.
    const counts: number[] = [];
    while (counts.length < 49) {
      const taken = leases.take('p', 0, 60_000, limit);
      if (typeof taken !== 'number') {
        now += 1;
        await counter.releaseOne();
      }
      counts.push(await taken);
    }
    expect(counts).toEqual(Array.from({ length: 49 }, (_, i) => 51 + i));
    expect(Math.max(...counter.sent.slice(2))).toBeLessThanOrEqual(2);
  });

  it('answers over the limit without a statement once a total says the window is spent', async () => {
    const counter = heldCounter();
    const leases = new TokenLeases(counter.incrementBy, NO_LEASES);
    const within = [leases.take('p', 0, 60_000, 2), leases.take('p', 0, 60_000, 2)];
    await counter.releaseOne();
    await counter.releaseOne();
    expect(await settled(within)).toEqual([1, 2]);
    expect(leases.take('p', 0, 60_000, 2)).toBe(3);
    expect(leases.take('p', 0, 60_000, 2)).toBe(4);
    expect(counter.sent).toEqual([1, 1]);
    // A quota raised meanwhile is asked of the store again.
    const raised = leases.take('p', 0, 60_000, 10);
    await counter.releaseOne();
    expect(await raised).toBe(3);
  });

  it('several instances on one counter never hand out a count within the limit twice, nor admit more than it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.record({ instance: fc.integer({ min: 0, max: 2 }), step: fc.integer({ min: 0, max: 3 }) }), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.array(fc.nat(), { maxLength: 300 }),
        async (limit, checks, releaseOrder) => {
          const counter = heldCounter();
          let now = 0;
          const instances = [0, 1, 2].map(() => new TokenLeases(counter.incrementBy, LEASES, () => now));
          const answers: Array<number | Promise<number>> = [];
          let order = 0;
          for (const { instance, step } of checks) {
            now += step;
            answers.push(instances[instance]!.take('p', 0, 3_600_000, limit));
            // Statements complete in any order, now and then, as round trips of different lengths do.
            if (counter.held.length > 0 && (releaseOrder[order] ?? 0) % 3 === 0)
              await counter.release((releaseOrder[order] ?? 0) % counter.held.length);
            order += 1;
          }
          while (counter.held.length > 0) await counter.releaseOne();
          // Counts over the limit answered from a spent window may repeat another instance's: all are refusals.
          const admitted = (await settled(answers)).filter((count) => count <= limit);
          expect(new Set(admitted).size).toBe(admitted.length);
          expect(admitted.length).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 300 },
    );
  });
});
