import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import type { UnsentMessage } from '../../infrastructure/repositories/mail-outbox.js';

/**
 * Messages about one thing ('donation:DON-…') leave in the order they were written (their seq), whatever the batch,
 * the connections and the instances (docs/decisions/0057-mail-about-one-thing-in-order.md): a void notice before the
 * receipt that replaces it. Why a message cannot leave now: 'wait' while an earlier one about the same thing is
 * pending (its job waiting, or on the wire in another batch), 'hold' while an earlier one is held.
 */
export type Gate = 'wait' | 'hold';

type Ordered = Pick<MailMessage, 'about' | 'seq'>;

/** In the order they were written: by seq (a bigint, compared as one). */
export function bySeq<T>(items: readonly T[], seqOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => {
    const [x, y] = [BigInt(seqOf(a)), BigInt(seqOf(b))];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The gates of one batch: earlier messages outside it, then what the batch decides for its own, in seq order. */
export class OrderGates {
  private readonly stuck = new Map<string, Gate>();

  constructor(private readonly outside: readonly UnsentMessage[]) {}

  /** The message's gate: what the batch decided for an earlier one about the same thing, else `outside`. */
  gate(message: Ordered): Gate | null {
    return (message.about !== null && this.stuck.get(message.about)) || this.outsideGate(message);
  }

  /** The message's gate from earlier messages outside the batch only. */
  outsideGate(message: Ordered): Gate | null {
    if (message.about === null) return null;
    const earlier = this.outside.filter((o) => o.about === message.about && BigInt(o.seq) < BigInt(message.seq));
    if (earlier.some((o) => o.status === 'pending')) return 'wait';
    return earlier.length > 0 ? 'hold' : null;
  }

  /** A message of the batch that does not leave now: the later ones about the same thing wait for it, or are held. */
  stop(message: Ordered, why: Gate): void {
    if (message.about !== null && !this.stuck.has(message.about)) this.stuck.set(message.about, why);
  }
}

/**
 * A batch's messages to send as chains, each sent one after the other: one per thing they are about, in seq order,
 * and one for each message about nothing. Chains run side by side over the pooled connections.
 */
export function chainsOf<T extends { message: Ordered }>(ready: readonly T[]): T[][] {
  const chains = new Map<string, T[]>();
  const alone: T[][] = [];
  for (const item of ready) {
    const about = item.message.about;
    if (about === null) alone.push([item]);
    else chains.set(about, [...(chains.get(about) ?? []), item]);
  }
  return [...[...chains.values()].map((chain) => bySeq(chain, (item) => item.message.seq)), ...alone];
}

/** Held because an earlier message about the same thing is held: released with it. */
export const HELD_BEHIND_EARLIER = 'An earlier message about the same thing is held: this one waits for it';
