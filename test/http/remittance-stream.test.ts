import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHash } from '../../src/domain/request-hash.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * POST /remittances reads its body as it arrives (docs/decisions/0079-remittance-body-streamed.md). Each body is
 * sent as it is (under 64 KiB: parsed whole) and padded past 64 KiB with trailing spaces (read token by token):
 * both answer what the whole-body parser answered before, field by field.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REMITTANCE_ENTRIES: '100000', BODY_LIMIT_BYTES: String(16 * 1024 * 1024) } });
});
afterAll(async () => t.close());

const src = { channel: 'Storefront App', fundraiserId: '10000001' };
const ok = (i: number) => ({ bankReferenceId: `B-${i}`, amount: 1, donationIds: ['D'] });
const many = (n: number, bad: Record<number, unknown>) =>
  Array.from({ length: n }, (_, i) => (i in bad ? bad[i] : ok(i)));
const cases: [string, unknown][] = [
  [
    'multi',
    {
      source: { channel: 'Storefront App' },
      remittances: [
        { bankReferenceId: 'B', amount: 1.234, donationIds: [''] },
        ok(1),
        { amount: 'x', donationIds: 'D', extra: 'a\u0000b' },
      ],
    },
  ],
  [
    'positions',
    {
      source: src,
      remittances: many(50, {
        0: { ...ok(0), amount: -1 },
        25: { ...ok(25), donationIds: [] },
        49: { ...ok(49), bankReferenceId: 'x'.repeat(101) },
      }),
    },
  ],
  ['array', []],
  ['string', 'x'],
  ['null', null],
  ['remNotArray', { source: src, remittances: {} }],
  ['noRem', { source: src }],
  ['noSource', { remittances: [ok(0)] }],
  ['entryNotObject', { source: src, remittances: [1, 'x', null, [ok(0)]] }],
  ['unknownChannel', { source: { channel: 'Nope', fundraiserId: '1' }, remittances: [{ ...ok(0), amount: 0 }] }],
  [
    'sourceBad',
    {
      source: { channel: 1, fundraiserId: 2, fundraiserAccountName: 'a\u0001' },
      remittances: [ok(0)],
      extra: { x: 'a\u0000' },
    },
  ],
  ['ctrl', { source: src, remittances: [{ ...ok(0), bankReferenceId: 'a\u0007b' }] }],
  ['unpaired', { source: src, remittances: [{ ...ok(0), bankReferenceId: 'a\ud800b' }] }],
  ['dupEntryErrs', { source: src, remittances: [{ bankReferenceId: 5, amount: 1, donationIds: [5, 'x'.repeat(70)] }] }],
];
const raws: [string, string][] = [
  ['empty', ''],
  ['truncStart', '{'],
  ['truncMid', '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankRef'],
  [
    'trailing',
    '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankReferenceId":"B","amount":1,"donationIds":["D"]}]} x',
  ],
  ['extraBrace', '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[]}}'],
  [
    'proto',
    '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankReferenceId":"B","amount":1,"donationIds":["D"],"__proto__":{"x":1}}]}',
  ],
  [
    'ctor',
    '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankReferenceId":"B","amount":1,"donationIds":["D"],"constructor":{"prototype":{"x":1}}}]}',
  ],
  [
    'dupRem',
    '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"amount":1}],"remittances":[{"bankReferenceId":"B","amount":1,"donationIds":["D"]}]}',
  ],
  [
    'badNumber',
    '{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankReferenceId":"B","amount":01,"donationIds":["D"]}]}',
  ],
  [
    'bom',
    '\ufeff{"source":{"channel":"Storefront App","fundraiserId":"10000001"},"remittances":[{"bankReferenceId":"B","amount":1,"donationIds":["D"]}]}',
  ],
  ['ws', '  \n'],
];

/** The answers of the whole-body parser, recorded before the body was streamed. */
const EXPECTED: Record<string, [number, string]> = {
  multi: [
    400,
    'remittances[2].extra: must not contain NUL characters or unpaired surrogates; source.fundraiserId: is required; remittances[0].amount: must be a positive number with at most 2 decimals; remittances[0].donationIds[0]: must not be empty; remittances[2].bankReferenceId: is required; remittances[2].amount: must be a number; remittances[2].donationIds: must be an array',
  ],
  positions: [
    400,
    'remittances[0].amount: must be a positive number with at most 2 decimals; remittances[25].donationIds: must NOT have fewer than 1 items; remittances[49].bankReferenceId: must be at most 100 characters',
  ],
  array: [400, '(body): must be an object'],
  string: [400, '(body): must be an object'],
  null: [400, '(body): must be an object'],
  remNotArray: [400, 'remittances: must be an array'],
  noRem: [400, 'remittances: is required'],
  noSource: [400, 'source: is required'],
  entryNotObject: [
    400,
    'remittances[0]: must be an object; remittances[1]: must be an object; remittances[2]: must be an object; remittances[3]: must be an object',
  ],
  unknownChannel: [
    400,
    'source.channel: must be one of "Registration Integration", "Storefront App"; remittances[0].amount: must be a positive number with at most 2 decimals',
  ],
  sourceBad: [
    400,
    'extra.x: must not contain NUL characters or unpaired surrogates; source.channel: must be a string; source.fundraiserId: must be a string; source.fundraiserAccountName: must not contain control characters (line breaks, tabs, other C0 or C1 controls, or DEL)',
  ],
  ctrl: [
    400,
    'remittances[0].bankReferenceId: must not contain control characters (line breaks, tabs, other C0 or C1 controls, or DEL)',
  ],
  unpaired: [400, 'remittances[0].bankReferenceId: must not contain NUL characters or unpaired surrogates'],
  dupEntryErrs: [
    400,
    'remittances[0].bankReferenceId: must be a string; remittances[0].donationIds[0]: must be a string; remittances[0].donationIds[1]: must be at most 64 characters',
  ],
  empty: [400, '(body): a JSON body is required'],
  truncStart: [400, '(body): malformed JSON'],
  truncMid: [400, '(body): malformed JSON'],
  trailing: [400, '(body): malformed JSON'],
  extraBrace: [400, '(body): malformed JSON'],
  proto: [400, '(body): malformed JSON'],
  ctor: [400, '(body): malformed JSON'],
  dupRem: [202, 'Request Accepted'],
  badNumber: [400, '(body): malformed JSON'],
  bom: [202, 'Request Accepted'],
  ws: [400, '(body): malformed JSON'],
};

const PAD = ' '.repeat(70_000);
const send = (body: string) =>
  t.call('POST', '/remittances', { body, headers: { 'content-type': 'application/json' } });
const answer = async (body: string) => {
  const response = await send(body);
  const json = response.json();
  return [response.statusCode, json.error?.cause ?? json.data?.items?.status];
};

describe('POST /remittances: the streamed body answers as the whole body did', () => {
  it.each(cases)('%s', async (name, body) => {
    expect(await answer(JSON.stringify(body))).toEqual(EXPECTED[name]);
    expect(await answer(JSON.stringify(body) + PAD)).toEqual(EXPECTED[name]);
  });
  it.each(raws)('raw %s', async (name, body) => {
    expect(await answer(body)).toEqual(EXPECTED[name]);
    // Whitespace alone is malformed JSON, not an empty body.
    expect(await answer(body + PAD)).toEqual(name === 'empty' ? [400, '(body): malformed JSON'] : EXPECTED[name]);
  });
});

describe('POST /remittances: a 100,000-entry batch', () => {
  const body = (runId: string, bad: Record<number, unknown> = {}) => ({
    source: src,
    remittances: Array.from({ length: 100_000 }, (_, i) =>
      i in bad
        ? bad[i]
        : { bankReferenceId: `BIG-${runId}-${i}`, amount: 10 + (i % 100) / 100, donationIds: [`DON-${runId}-${i}`] },
    ),
  });

  it('is stored whole, with its count, total and hash as before, and reconciled', async () => {
    const sent = body(randomUUID().slice(0, 8));
    const key = randomUUID();
    const response = await t.post('/remittances', sent, { headers: { 'idempotency-key': key } });
    expect(response.statusCode).toBe(202);
    const batchId = response.json().data.items.batchId as string;
    const stored = await t.db
      .selectFrom('remittance_batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    const totalCents = sent.remittances.reduce<number>(
      (sum, entry) => sum + Math.round((entry as { amount: number }).amount * 100),
      0,
    );
    expect(stored).toMatchObject({ entry_count: 100_000, total_cents: totalCents, request_hash: requestHash(sent) });
    const last = await t.db
      .selectFrom('remittance_entries')
      .select(['position', 'bank_reference_id', 'amount_cents', 'donation_ids'])
      .where('batch_id', '=', batchId)
      .where('position', 'in', [0, 4999, 5000, 99_999])
      .orderBy('position')
      .execute();
    const expected = [0, 4999, 5000, 99_999].map((i) => {
      const entry = sent.remittances[i] as { bankReferenceId: string; amount: number; donationIds: string[] };
      return {
        position: i,
        bank_reference_id: entry.bankReferenceId,
        amount_cents: Math.round(entry.amount * 100),
        donation_ids: entry.donationIds,
      };
    });
    expect(last).toEqual(expected);

    // The same body again, its members in another order: the same hash, so a replay of the first answer.
    const reordered = {
      remittances: sent.remittances,
      source: { fundraiserId: src.fundraiserId, channel: src.channel },
    };
    const again = await t.post('/remittances', reordered, { headers: { 'idempotency-key': key } });
    expect(again.statusCode).toBe(202);
    expect(again.json().data.items.batchId).toBe(batchId);
    // The same key with another body: the conflict it always was.
    const other = await t.post('/remittances', body('other'), { headers: { 'idempotency-key': key } });
    expect(other.statusCode).toBe(409);

    await t.reconcile();
    const reconciled = await t.db
      .selectFrom('remittance_batches')
      .select('status')
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(reconciled.status).toMatch(/^completed/);
  }, 600_000);

  it('names the failing entries at the start, the middle and the end, and stores nothing', async () => {
    const runId = randomUUID().slice(0, 8);
    const sent = body(runId, {
      0: { bankReferenceId: 'B', amount: 0, donationIds: ['D'] },
      50_000: { bankReferenceId: 'B', amount: 1, donationIds: [] },
      99_999: { amount: 1, donationIds: ['D'] },
    });
    const response = await t.post('/remittances', sent);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe(
      'remittances[0].amount: must be a positive number with at most 2 decimals; ' +
        'remittances[50000].donationIds: must NOT have fewer than 1 items; remittances[99999].bankReferenceId: is required',
    );
    const stored = await t.db
      .selectFrom('remittance_entries')
      .select('batch_id')
      .where('bank_reference_id', '=', `BIG-${runId}-1`)
      .execute();
    expect(stored).toEqual([]);
  }, 120_000);

  it('is malformed JSON wherever the body breaks off', async () => {
    const text = JSON.stringify(body(randomUUID().slice(0, 8)));
    for (const at of [text.length / 4, text.length / 2, text.length - 2].map(Math.floor)) {
      const response = await send(text.slice(0, at));
      expect([response.statusCode, response.json().error.cause]).toEqual([400, '(body): malformed JSON']);
    }
  }, 120_000);

  it('is 413 over the body limit, as before', async () => {
    const text = JSON.stringify(body(randomUUID().slice(0, 8))) + ' '.repeat(t.config.BODY_LIMIT_BYTES);
    const response = await send(text);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('FUNDRAISER:PAYLOAD_TOO_LARGE');
  }, 120_000);
});
