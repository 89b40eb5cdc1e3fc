import type { ReceiptFacts } from '../../src/domain/receipt.js';

/** A live receipt's facts as the register gives them to the PDF, for tests that render one without a database. */
export const receiptFacts = (overrides: Partial<ReceiptFacts> = {}): ReceiptFacts => ({
  number: 'R-2026-000042',
  sample: false,
  issuer: {
    legalName: 'Australian Sports Foundation Limited',
    abn: '53004085616',
    dgrStatement: 'The foundation is endorsed by the ATO as a deductible gift recipient (item 1).',
  },
  donorName: 'Avery Wattleton',
  donorBusinessName: null,
  amountCents: 123_456,
  giftDate: '2026-11-20',
  fundraiserName: 'Sydney Swans Juniors — Under 12s',
  issuedOn: '2026-11-21',
  replacesNumber: null,
  voided: null,
  ...overrides,
});
