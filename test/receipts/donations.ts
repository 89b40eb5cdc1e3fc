import { randomUUID } from 'node:crypto';
import { donationBody, type TestApp } from '../helpers/test-app.js';
import { bankReference, postBatch } from '../reconciliation/support.js';

/** A donation recorded through POST /donations with this donor; returns its reference id. */
export async function give(
  t: TestApp,
  amount: string,
  donor: { email: string; firstName?: string; lastName?: string; businessName?: string },
) {
  const body = donationBody({ amount, transactionId: randomUUID() });
  Object.assign(body.donor, {
    email: donor.email,
    firstName: donor.firstName ?? 'Jo',
    lastName: donor.lastName ?? 'Citizen',
    ...(donor.businessName ? { businessName: donor.businessName } : {}),
  });
  const response = await t.post('/donations', body);
  if (response.statusCode !== 200) throw new Error(`donation refused: ${response.body}`);
  return response.json().data.items.donationReferenceId as string;
}

/** Settles donations by one remittance entry each (posted as one batch) and reconciles it now. */
export async function settle(t: TestApp, donations: { id: string; amount: number }[]) {
  const batchId = await postBatch(
    t,
    donations.map((d) => ({ bankReferenceId: bankReference(), amount: d.amount, donationIds: [d.id] })),
  );
  await t.reconcile();
  return batchId;
}

/** The register rows of a donation, oldest first. */
export function receiptsOf(t: TestApp, referenceId: string) {
  return t.db
    .selectFrom('receipts')
    .selectAll()
    .where('donation_reference_id', '=', referenceId)
    .orderBy('issued_at')
    .orderBy('sequence')
    .execute();
}
