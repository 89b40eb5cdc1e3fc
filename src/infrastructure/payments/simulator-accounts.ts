/** Test bank accounts of the simulator, after the payment provider's published BECS test numbers. */
export const SIMULATOR_TEST_ACCOUNTS = {
  bsb: '000-000',
  succeeds: '000123456',
  succeedsAfterProcessing: '900123456',
  /** Mandates that succeed, whose debits then do what the name says (docs/recurring.md, "Sandbox"). */
  debits: {
    '000111116': 'debits fail: insufficient funds',
    '000111124': 'each debit fails once (insufficient funds), then succeeds on its retry',
    '000222227': 'debits succeed, then are disputed',
    '000333335': 'debits fail: account closed (not retried; the plan is canceled)',
    '000444443': 'debits fail: the mandate was revoked (its plans are canceled)',
  } as Record<string, string>,
  fails: { '111111113': 'account_closed', '111111116': 'no_account', '222222227': 'insufficient_funds' } as Record<
    string,
    string
  >,
};

/** What a try of a debit on a test account ends as. */
export function simulatedOutcome(
  accountNumber: string,
  attempt: number,
): { status: 'succeeded' | 'failed' | 'disputed'; failureCode: string | null } {
  switch (accountNumber) {
    case '000111116':
      return { status: 'failed', failureCode: 'insufficient_funds' };
    case '000111124':
      return attempt === 1
        ? { status: 'failed', failureCode: 'insufficient_funds' }
        : { status: 'succeeded', failureCode: null };
    case '000222227':
      return { status: 'disputed', failureCode: null };
    case '000333335':
      return { status: 'failed', failureCode: 'account_closed' };
    case '000444443':
      return { status: 'failed', failureCode: 'mandate_revoked' };
    default:
      return { status: 'succeeded', failureCode: null };
  }
}
