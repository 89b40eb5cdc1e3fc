import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mailPolicy } from '../../src/config/mail.js';
import type { Database } from '../../src/infrastructure/db/connect.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { MAIL_DELIVERY_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { receiptMailContent } from '../../src/services/receipts/content.js';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp } from '../helpers/test-app.js';
import { createDurableDatabase, waitUntil } from '../reconciliation/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf, settle } from './donations.js';
import { LIVE_ENV, startSmtpServer, uniqueEmail, type SmtpServer } from './support.js';

/**
 * kill -9 of the instance sending a receipt (docs/receipts.md, "Delivery"), on PostgreSQL: the receipt was issued
 * once at settlement; its message is retried by the next instance once the dead one's job expires, and every
 * attempt carries the message's own Message-ID, so a resend after the server had accepted it is the same message.
 */
const WORKER_PROCESS = fileURLToPath(new URL('./fixtures/mail-worker-process.ts', import.meta.url));
const FAST = { [MAIL_DELIVERY_QUEUE]: { expireInSeconds: 3, retryDelaySeconds: 1, retryBackoff: false } };
const DONORS = 3;

type Durable = Awaited<ReturnType<typeof createDurableDatabase>>;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** A durable database holding DONORS settled live donations, each receipted with its message waiting. */
async function settledDonations(smtp: SmtpServer) {
  const durable = await createDurableDatabase();
  cleanups.push(() => durable.dispose());
  const database = await durable.open();
  const jobQueue = await JobQueue.start(database, { policies: FAST });
  const t = await startTestApp({
    database,
    jobQueue,
    env: { ...LIVE_ENV, SMTP_URL: smtp.url },
    deps: { payments: noPaymentProvider },
  });
  try {
    const donors = [];
    for (let i = 0; i < DONORS; i++) {
      const email = uniqueEmail(`kill${i}`);
      donors.push({ email, ref: await give(t, '10.00', { email }) });
    }
    await settle(
      t,
      donors.map((d) => ({ id: d.ref, amount: 10 })),
    );
    for (const d of donors) expect(await receiptsOf(t, d.ref)).toHaveLength(1);
    return { durable, donors };
  } finally {
    await t.close();
    await jobQueue.stop();
    await database.close();
  }
}

function startWorkerProcess(durable: Durable, smtp: SmtpServer, stopAt: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS], {
    env: { ...process.env, ...durable.env, SMTP_URL: smtp.url, STOP_AT: stopAt, QUEUE_POLICIES: JSON.stringify(FAST) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
  const output = { text: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  return { child, output };
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function outbox(db: Database['db']) {
  return db.selectFrom('mail_outbox').select(['recipient', 'status', 'attempts']).orderBy('seq').execute();
}

/** The next instance: a queue with maintenance (the dead one's job expires and is retried) and a mail worker. */
async function restartAndDeliver(durable: Durable, smtp: SmtpServer) {
  const database = await durable.open();
  cleanups.push(() => database.close());
  const queue = await JobQueue.start(database, { policies: FAST, maintenance: true, maintenanceIntervalSeconds: 1 });
  cleanups.push(() => queue.stop());
  const policy = mailPolicy({
    ...LIVE_ENV,
    SMTP_URL: smtp.url,
    MAIL_CONCURRENCY: 2,
    MAIL_BATCH_SIZE: 25,
    SMTP_TIMEOUT_MS: 5000,
  });
  const worker = new MailDeliveryWorker(queue, database, policy, receiptMailContent);
  cleanups.push(async () => worker.stop());
  await worker.start();
  await waitUntil(async () => (await outbox(database.db)).every((m) => m.status === 'sent'), {
    timeoutMs: 60_000,
    intervalMs: 200,
    what: 'every message to be sent',
  });
  return database;
}

describe.runIf(usingPostgres())('kill -9 in the middle of sending a receipt (PostgreSQL)', { timeout: 180_000 }, () => {
  it('killed while the server held the message unanswered: nothing arrived; the next instance sends it once', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const { durable, donors } = await settledDonations(smtp);
    // The server takes the first message's data and never answers it: the sender dies mid-DATA.
    let held: () => void = () => undefined;
    const dataHeld = new Promise<void>((resolve) => (held = resolve));
    smtp.holdData(() => {
      smtp.holdData(null);
      held();
    });
    const { child, output } = startWorkerProcess(durable, smtp, 'none');
    await Promise.race([
      dataHeld,
      new Promise((_, reject) => child.once('exit', () => reject(new Error(`worker exited: ${output.text}`)))),
    ]);
    await kill(child);
    expect(smtp.arrived).toEqual([]);

    const database = await restartAndDeliver(durable, smtp);
    for (const { email } of donors) {
      const mails = smtp.arrived.filter((a) => a.envelopeTo.includes(email));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.mail.attachments[0]!.contentType).toBe('application/pdf');
    }
    const messages = await outbox(database.db);
    expect(messages.map((m) => m.status)).toEqual(Array(DONORS).fill('sent'));
    expect(messages.map((m) => m.attempts).sort()).toEqual([...Array(DONORS - 1).fill(1), 2]);
    const receipts = await database.db.selectFrom('receipts').select('donation_reference_id').execute();
    expect(receipts.map((r) => r.donation_reference_id).sort()).toEqual(donors.map((d) => d.ref).sort());
  });

  it('killed after the server accepted, before the outbox recorded it: the resend is the same message', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const { durable, donors } = await settledDonations(smtp);
    const { child, output } = startWorkerProcess(durable, smtp, 'accepted');
    await waitUntil(async () => output.text.includes('STOPPED accepted'), {
      timeoutMs: 60_000,
      what: `the worker to send one message (${output.text})`,
    });
    await kill(child);
    expect(smtp.arrived).toHaveLength(1);
    const [first] = smtp.arrived;

    const database = await restartAndDeliver(durable, smtp);
    for (const { email } of donors) {
      const mails = smtp.arrived.filter((a) => a.envelopeTo.includes(email)).map((a) => a.mail);
      // One message per donor: the one accepted before the kill arrives again under its own Message-ID, which
      // mail stores use to show it once (RFC 5322 3.6.4); everything else arrives once.
      expect(new Set(mails.map((m) => m.messageId)).size).toBe(1);
      if (email !== first!.envelopeTo[0]) expect(mails).toHaveLength(1);
      else {
        expect(mails).toHaveLength(2);
        expect(mails[1]!.subject).toBe(mails[0]!.subject);
        expect(mails[1]!.attachments[0]!.content.equals(mails[0]!.attachments[0]!.content)).toBe(true);
      }
    }
    const receipts = await database.db.selectFrom('receipts').select('donation_reference_id').execute();
    expect(receipts).toHaveLength(DONORS);
  });
});
