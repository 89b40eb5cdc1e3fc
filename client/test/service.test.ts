import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, OPENAPI_FILE, renderOpenApi } from '../../scripts/export-openapi.js';
import { donationBody, startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { PartnerApiError, PartnerClient } from '../src/index.js';

/** The client against the real service, listening on a real port, as a partner would use it. */

let t: TestApp;
let baseUrl: string;
let api: PartnerClient;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  api = new PartnerClient({ baseUrl, clientId: t.storefront.clientId, clientSecret: t.storefront.clientSecret });
});
afterAll(async () => t.close());

const countDonations = async () =>
  Number(
    (
      await t.db
        .selectFrom('donations')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the partner client against the service', () => {
  it('is generated from the current routes: openapi.json and client/src/schema.ts are up to date', async () => {
    const { json, types } = await renderOpenApi();
    expect(readFileSync(OPENAPI_FILE, 'utf8'), 'run `npm run openapi`').toBe(json);
    expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'run `npm run openapi`').toBe(types);
  }, 120_000);

  it('sends the credentials and a fresh correlation id per call, and returns data.items', async () => {
    const check = await api.validateFundraiser({ channel: 'Storefront App', id: '10000001' });
    expect(check).toMatchObject({ status: 200, attempts: 1, replayed: false });
    expect(check.data.status).toBe('Enrollment Validated');
    expect(check.headers.get('x-correlation-id')).toBe(check.correlationId);

    const donation = await api.recordDonation(donationBody());
    expect(donation.data.donationReferenceId).toMatch(/^DON-/);
    expect(donation.correlationId).not.toBe(check.correlationId);
    expect((await api.ping()).data).toEqual({ status: 'Ok' });
  });

  it('rejects with one typed error: status, code, message, every cause, correlation id', async () => {
    const basic = new PartnerClient({
      baseUrl,
      clientId: t.storefront.clientId,
      clientSecret: t.storefront.clientSecret,
      basicAuth: true,
    });
    const notFound = await basic.getAccount('99999999', 'Storefront App').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(PartnerApiError);
    expect(notFound).toMatchObject({ status: 404, code: 'ACCOUNT:NOT_FOUND', message: 'Account with ID not found.' });

    const body = donationBody();
    const invalid = await api
      .recordDonation({ ...body, donor: { ...body.donor, email: 'nope', firstName: '' } })
      .catch((e: PartnerApiError) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'FUNDRAISER:VALIDATION', attempts: 1 });
    expect((invalid as PartnerApiError).causes).toEqual([
      'donor.email: must be a valid email address',
      expect.stringMatching(/^donor\.firstName: /),
    ]);
    expect(((invalid as PartnerApiError).body as { correlationId: string }).correlationId).toBe(invalid.correlationId);
  });

  it('starts a recurring donation, moves the sandbox clock a month on, and reads the collected debits', async () => {
    const created = await api.createMandate({
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Pat', lastName: 'Payer', email: 'pat@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const { mandateId } = created.data;
    await api.confirmSandboxMandate(mandateId, { bsb: '000-000', accountNumber: '000123456' });
    const today = (await api.call<'/sandbox/clock', 'get'>({ method: 'GET', path: '/sandbox/clock' })).data.today;
    const plan = await api.createRecurringDonation({ mandateId, amount: '10', frequency: 'weekly', startDate: today });
    expect(plan.status).toBe(201);
    const moved = await api.advanceSandboxClock('P1M');
    expect(moved.data.paymentsSettled).toBeGreaterThanOrEqual(4);
    const read = await api.getRecurringDonation(plan.data.recurringDonationId);
    expect(read.data.debits.filter((d) => d.status === 'succeeded').length).toBe(moved.data.paymentsSettled);
    const listed = await api.listRecurringDonations({ mandateId, limit: 10 });
    expect(listed.data.recurringDonations.map((p) => p.recurringDonationId)).toEqual([plan.data.recurringDonationId]);
    const oneOff = await api.createDebit(mandateId, { amount: '3.50', transaction: { id: 'round-up-1' } });
    expect((await api.getDebit(oneOff.data.debitId)).data.transactionId).toBe('round-up-1');
    const canceled = await api.cancelRecurringDonation(plan.data.recurringDonationId);
    expect(canceled.data.status).toBe('canceled');
  });

  it('reverses part of a donation, reads it back with its net amount, and retries the reversal safely', async () => {
    const donation = await api.recordDonation(donationBody({ amount: '20.00' }));
    const id = donation.data.donationReferenceId;
    const body = { amount: '5.00', reason: 'refunded' as const, transaction: { id: `refund-${id}` } };
    const reversed = await api.reverseDonation(id, body);
    expect(reversed.status).toBe(201);
    const replayed = await api.reverseDonation(id, body);
    expect(replayed.data).toEqual(reversed.data);
    const read = await api.getDonation(id);
    expect(read.data).toMatchObject({ amount: '20.00', reversedAmount: '5.00', netAmount: '15.00', settlement: null });
    expect(read.data.reversals.map((r) => [r.amount, r.reason, r.requestedBy])).toEqual([
      ['5.00', 'refunded', 'partner'],
    ]);
    const tooMuch = await api
      .reverseDonation(id, { amount: '16.00', reason: 'error' })
      .catch((e: PartnerApiError) => e);
    expect(tooMuch).toMatchObject({ status: 400 });
  });

  it('refuses credentials of another environment before any call', () => {
    expect(
      () => new PartnerClient({ baseUrl, clientId: 'sit_x', clientSecret: 's', environment: 'production' }),
    ).toThrow(/belongs to sit/);
  });

  it('walks a mandate to succeeded and a remittance to its report', async () => {
    const source = { channel: 'Storefront App', fundraiserId: '10000001' };
    const created = await api.createMandate({
      source,
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const { mandateId } = created.data;
    expect((await api.getMandate(mandateId)).data.mandate).toEqual({});
    await api.confirmSandboxMandate(mandateId, { bsb: '000-000', accountNumber: '000123456' });
    const mandate = await api.getMandate(mandateId);
    expect(mandate.data.status).toBe('succeeded');
    expect(mandate.data.mandate.paymentMethod).toBe('au_becs_debit');

    const donation = await api.recordDonation(donationBody({ amount: '12.34' }));
    const posted = await api.postRemittances({
      source,
      remittances: [{ bankReferenceId: 'C1', amount: 12.34, donationIds: [donation.data.donationReferenceId] }],
    });
    expect(posted.status).toBe(202);
    await t.reconcile();
    const report = await api.getRemittanceReport(posted.data.batchId);
    expect(report.data.status).toBe('completed');
    expect(report.data.entries[0]?.outcome).toBe('matched');
  });
});

describe('the partner client behind a server that answers 503 with Retry-After before succeeding', () => {
  it('makes one call of several attempts with one Idempotency-Key, and records one donation', async () => {
    const seen: { key: string | undefined; correlationId: string | undefined }[] = [];
    // Attempt 1 reaches the service but its answer is lost (503 instead); attempt 2 never reaches it; attempt 3 does.
    const proxy = http.createServer((request, response) => {
      seen.push({
        key: request.headers['idempotency-key'] as string,
        correlationId: request.headers['x-correlation-id'] as string,
      });
      const unavailable = () => response.writeHead(503, { 'retry-after': '1' }).end('{"error":{"code":"X"}}');
      if (seen.length === 2) return void request.resume().on('end', unavailable);
      const upstream = http.request(
        `${baseUrl.replace(/\/v1$/, '')}${request.url}`,
        { method: request.method, headers: request.headers },
        (answer) => {
          if (seen.length === 1) return void answer.resume().on('end', unavailable);
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const viaProxy = new PartnerClient({
        baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`,
        clientId: t.storefront.clientId,
        clientSecret: t.storefront.clientSecret,
      });
      const before = await countDonations();
      const started = Date.now();
      const body = donationBody();
      const result = await viaProxy.recordDonation({ ...body, transaction: { ...body.transaction, id: undefined } });

      expect(result.attempts).toBe(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000); // two waits of Retry-After: 1
      expect(result.replayed).toBe(true); // the answer lost at attempt 1 is replayed
      expect(seen).toHaveLength(3);
      expect(new Set(seen.map((s) => s.key)).size).toBe(1);
      expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
      // A fresh correlation id per request, so each attempt can be found on its own in the service's logs.
      expect(result.correlationIds).toEqual(seen.map((s) => s.correlationId));
      expect(new Set(result.correlationIds).size).toBe(3);
      expect(result.headers.get('x-correlation-id')).toBe(result.correlationId);
      expect(await countDonations()).toBe(before + 1);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
