/** A BSB (bank-state-branch number) as Australian banks write it: six digits, `NNN-NNN`. Pure rules. */

const BSB = /^(\d{3})[- ]?(\d{3})$/;

/** The BSB written `NNN-NNN`, from `NNN-NNN`, `NNN NNN` or `NNNNNN` (spaces around it ignored); null otherwise. */
export function normaliseBsb(value: string): string | null {
  const match = BSB.exec(value.trim());
  return match ? `${match[1]}-${match[2]}` : null;
}

/** Why a BSB is refused, naming it, or null when its format is right. */
export function bsbFormatProblem(value: string): string | null {
  return normaliseBsb(value) ? null : `BSB ${JSON.stringify(value)} must be six digits written NNN-NNN (or NNNNNN)`;
}
