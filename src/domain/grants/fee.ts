/**
 * The foundation's fee on a grant (docs/grants.md, "What a round pays"): GRANT_FEE_PERCENT of the donations line,
 * in basis points so that every step is integer arithmetic, rounded half up to the cent
 * (docs/decisions/0063-grant-round-cut-off-and-fee-rounding.md).
 */

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** "2.5" → 250 basis points; null for anything that is not a percentage from 0 to 100 with two decimals at most. */
export function feeBasisPoints(percent: string): number | null {
  const match = PERCENT.exec(percent.trim());
  if (!match) return null;
  const points = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return points <= 10_000 ? points : null;
}

/** The fee on `donationsCents` at `basisPoints`, half up to the cent; nothing on a line with no donations. */
export function feeCents(donationsCents: bigint, basisPoints: number): bigint {
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000)
    throw new RangeError(`a fee of ${basisPoints} basis points is not between 0 and 10000`);
  if (donationsCents <= 0n) return 0n;
  return (donationsCents * BigInt(basisPoints) + 5_000n) / 10_000n;
}
