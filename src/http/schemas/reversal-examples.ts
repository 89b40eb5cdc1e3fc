/** Examples of reversals and of a donation as read back, for the OpenAPI document. */
export const reversalExample = {
  reversalId: 'REV-3KQ8M2X7C1WJ5R9T',
  donationReferenceId: 'DON-8ZK4M2Q7W1X5C9RT',
  amount: '5.00',
  reason: 'refunded' as const,
  transactionId: 'refund-7781',
  requestedBy: 'partner' as const,
  owedBack: true,
  createdAt: '2026-12-02T03:14:00.000Z',
};

export const donationRecordExample = {
  donationReferenceId: 'DON-8ZK4M2Q7W1X5C9RT',
  receivedAt: '2026-11-27T09:30:00.000Z',
  collectedBy: 'partner' as const,
  source: { channel: 'Storefront App', fundraiserId: '10000001' },
  donor: {
    email: 'alex.donor@example.com',
    firstName: 'Alex',
    lastName: 'Donor',
    mobile: '+61412345678',
    shareNameWithFundraiser: false,
    billingAddress: { postalCode: '2000', state: 'NSW', country: 'AU' },
  },
  transaction: { id: 'order-5531', date: '2026-11-27T20:30:00+11:00' },
  amount: '20.00',
  reversedAmount: '5.00',
  netAmount: '15.00',
  reversals: [reversalExample],
  settlement: {
    by: 'remittance' as const,
    batchId: 'f175802b-7630-42cd-bfca-aa3cbe629b01',
    bankReferenceId: 'BANK-20261128-0042',
    entryIndex: 0,
    settledAt: '2026-11-28T01:00:00.000Z',
  },
  owedBack: '5.00',
};
