import { expect } from 'vitest';
import { donationBody, type Caller, type TestApp } from '../helpers/test-app.js';

/** Donations, reversals and remittances made through the partner API of a test app (docs/reversals.md). */

const CHANNELS = { storefront: 'Storefront App', registration: 'Registration Integration' } as const;
const FUNDRAISERS = { storefront: '10000001', registration: '10000003' } as const;
type PartnerKey = keyof typeof CHANNELS;

const callerOf = (t: TestApp, partner: PartnerKey): Caller =>
  partner === 'storefront' ? t.storefront : t.registration;

/** A donation of `amount` AUD (none when null) recorded by the partner; answers its reference id. */
export async function donation(t: TestApp, amount: string | null, partner: PartnerKey = 'storefront') {
  const body = donationBody({
    amount: amount ?? undefined,
    channel: CHANNELS[partner],
    fundraiserId: FUNDRAISERS[partner],
  });
  if (amount === null) delete (body.transaction as { amount?: string }).amount;
  const response = await t.post('/donations', body, { as: callerOf(t, partner) });
  expect(response.statusCode).toBe(200);
  return response.json().data.items.donationReferenceId as string;
}

/** The partner's own reversal. */
export async function partnerReversal(
  t: TestApp,
  reference: string,
  amount: string,
  partner: PartnerKey = 'storefront',
) {
  const response = await t.post(
    `/donations/${reference}/reversals`,
    { amount, reason: 'refunded' },
    { as: callerOf(t, partner) },
  );
  expect(response.statusCode).toBe(201);
  return response.json().data.items as { reversalId: string; owedBack: boolean };
}

/** Posts a remittance batch, reconciles it, and answers the partner's report. */
export async function remit(
  t: TestApp,
  entries: { ref: string; amount: number; ids: string[] }[],
  partner: PartnerKey = 'storefront',
) {
  const as = callerOf(t, partner);
  const posted = await t.post(
    '/remittances',
    {
      source: { channel: CHANNELS[partner], fundraiserId: FUNDRAISERS[partner] },
      remittances: entries.map((e) => ({ bankReferenceId: e.ref, amount: e.amount, donationIds: e.ids })),
    },
    { as },
  );
  expect(posted.statusCode).toBe(202);
  await t.reconcile();
  return report(t, posted.json().data.items.batchId as string, partner);
}

export async function report(t: TestApp, batchId: string, partner: PartnerKey = 'storefront') {
  const response = await t.get(`/remittances/${batchId}`, { as: callerOf(t, partner) });
  expect(response.statusCode).toBe(200);
  return response.json().data.items as Record<string, any>;
}

/** The partner's view of its donation (GET /donations/{id}). */
export async function partnerView(t: TestApp, reference: string, partner: PartnerKey = 'storefront') {
  return (await t.get(`/donations/${reference}`, { as: callerOf(t, partner) })).json().data.items as Record<
    string,
    any
  >;
}
