import type { TestApp } from '../helpers/test-app.js';

/** A mandate of the storefront partner, confirmed in the sandbox with a test account (docs/recurring.md). */
export async function confirmedMandate(t: TestApp, accountNumber = '000123456', as = t.storefront) {
  const created = await t.post(
    '/mandates',
    {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat.payer@example.com' },
      paymentMethod: 'Direct Debit',
    },
    { as },
  );
  if (created.statusCode !== 200) throw new Error(`mandate refused: ${created.body}`);
  const { mandateId } = created.json().data.items as { mandateId: string };
  const confirmed = await t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber }, { as });
  if (confirmed.statusCode !== 200) throw new Error(`confirmation refused: ${confirmed.body}`);
  return mandateId;
}

/** The partner's date in the foundation's time zone, by its sandbox clock (which tests move forward). */
export async function todayOf(t: TestApp, as = t.storefront): Promise<string> {
  return (await t.get('/sandbox/clock', { as })).json().data.items.today as string;
}

export async function startPlan(t: TestApp, body: Record<string, unknown>, as = t.storefront) {
  const response = await t.post('/recurring-donations', body, { as });
  if (response.statusCode !== 201) throw new Error(`plan refused: ${response.statusCode} ${response.body}`);
  return response.json().data.items as { recurringDonationId: string; debits: unknown[] };
}

export const advance = (t: TestApp, duration: string, as = t.storefront) =>
  t.post('/sandbox/clock/advance', { duration }, { as });

/** Every event of the partner, oldest first, as GET /events lists them. */
export async function eventsOf(t: TestApp, as = t.storefront) {
  const events: { type: string; data: Record<string, any> }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await t.get('/events', { as, query: { limit: '100', ...(after ? { after } : {}) } });
    const items = page.json().data.items as { events: { id: string; type: string; data: any }[]; hasMore: boolean };
    events.push(...items.events);
    if (!items.hasMore) return events;
    after = items.events.at(-1)!.id;
  }
}
