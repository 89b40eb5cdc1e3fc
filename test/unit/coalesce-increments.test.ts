import { describe, expect, it } from 'vitest';
import { coalesceIncrements } from '../../src/infrastructure/quota/coalesce-increments.js';

/** A counter whose statements complete only when the test releases them, recording each statement's size. */
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
  const releaseOne = async () => {
    held.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { incrementBy, sent, releaseOne, failNextStatement: () => (failNext = true) };
}

describe('coalesceIncrements', () => {
  it('sends the first check at once and the checks that arrive meanwhile as one statement, each with its own count', async () => {
    const counter = heldCounter();
    const increment = coalesceIncrements(counter.incrementBy);
    const answers = Array.from({ length: 5 }, () => increment('partner-a', 0, 1000));
    expect(counter.sent).toEqual([1]);
    await counter.releaseOne();
    expect(counter.sent).toEqual([1, 4]);
    await counter.releaseOne();
    expect(await Promise.all(answers)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps windows and partners apart', async () => {
    const counter = heldCounter();
    const increment = coalesceIncrements(counter.incrementBy);
    const a = increment('partner-a', 0, 1000);
    const b = increment('partner-b', 0, 1000);
    const nextWindow = increment('partner-a', 1000, 1000);
    expect(counter.sent).toEqual([1, 1, 1]);
    for (let i = 0; i < 3; i += 1) await counter.releaseOne();
    expect(await Promise.all([a, b, nextWindow])).toEqual([1, 1, 1]);
  });

  it('fails every check of a failed statement, and the next group is sent regardless', async () => {
    const counter = heldCounter();
    const increment = coalesceIncrements(counter.incrementBy);
    const first = increment('partner-a', 0, 1000);
    counter.failNextStatement();
    const group = [increment('partner-a', 0, 1000), increment('partner-a', 0, 1000)];
    const firstFails = expect(first).rejects.toThrow('connection lost');
    await counter.releaseOne();
    await firstFails;
    expect(counter.sent).toEqual([1, 2]);
    const later = increment('partner-a', 0, 1000);
    await counter.releaseOne();
    expect(await Promise.all(group)).toEqual([1, 2]);
    await counter.releaseOne();
    expect(await later).toBe(3);
  });
});
