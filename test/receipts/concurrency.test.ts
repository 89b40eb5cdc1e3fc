import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPolicy } from '../../src/config/receipts.js';
import { reconcileBatch } from '../../src/services/reconciliation/reconcile-batch.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, postBatch } from '../reconciliation/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf } from './donations.js';
import { LIVE_ENV, mailWorker, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

describe('exactly one receipt per settled live donation under concurrent settlement', () => {
  let smtp: SmtpServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({ env: { ...LIVE_ENV, SMTP_URL: smtp.url }, deps: { payments: noPaymentProvider } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('receipts each donation once when overlapping batches reconcile at the same time, numbers gapless', async () => {
    const emails = Array.from({ length: 12 }, () => uniqueEmail('race'));
    const ids: string[] = [];
    for (const email of emails) ids.push(await give(t, '10.00', { email }));
    // Four batches, each naming every donation (by its own bank references): whichever settles one receipts it.
    const batches: string[] = [];
    for (let b = 0; b < 4; b++)
      batches.push(
        await postBatch(
          t,
          ids.map((id) => ({ bankReferenceId: bankReference(), amount: 10, donationIds: [id] })),
        ),
      );
    const policy = receiptPolicy(t.config);
    await Promise.all(
      batches.map((batchId) => reconcileBatch(t.db, batchId, undefined, '', undefined, { receipts: policy })),
    );

    const numbers: number[] = [];
    for (const id of ids) {
      const receipts = await receiptsOf(t, id);
      expect(receipts).toHaveLength(1);
      numbers.push(receipts[0]!.sequence);
    }
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    await mailWorker(t).run();
    for (const email of emails) expect(smtp.arrived.filter((a) => a.envelopeTo.includes(email))).toHaveLength(1);
  });
});
