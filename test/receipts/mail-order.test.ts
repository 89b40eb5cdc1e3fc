import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailPolicy } from '../../src/config/mail.js';
import { QUEUE_SCHEMA } from '../../src/infrastructure/queue/enqueue.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { enqueueMail, type MailContent } from '../../src/services/mail/outbox.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitUntil } from '../reconciliation/support.js';
import { uniqueEmail } from './support.js';

/**
 * Messages about one thing leave in the order they were written (docs/decisions/0057-mail-about-one-thing-in-order.md),
 * whatever MAIL_CONCURRENCY, MAIL_BATCH_SIZE and the instances. The SMTP server below holds the first message about
 * each thing for HOLD_MS before accepting it: a later message about the same thing sent alongside it (as a void
 * notice and its new receipt were, in one batch) reaches the server first, every time. With the order kept, the
 * server never sees a message before the one written ahead of it about the same thing was accepted.
 */
const HOLD_MS = 300;

/** An SMTP server that records, per message, when its data began and when it was accepted; holds every "#1". */
async function orderingSmtpServer() {
  const events: { subject: string; event: 'data' | 'accepted' }[] = [];
  let reject: ((subject: string) => number | null) | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString('utf8'))?.[1]?.trim() ?? '?';
        const code = reject?.(subject) ?? null;
        if (code !== null) return callback(Object.assign(new Error('try later'), { responseCode: code }));
        events.push({ subject, event: 'data' });
        const accept = () => {
          events.push({ subject, event: 'accepted' });
          callback();
        };
        if (subject.endsWith('#1')) setTimeout(accept, HOLD_MS);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    events,
    rejectWhen(fn: typeof reject) {
      reject = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type OrderingSmtp = Awaited<ReturnType<typeof orderingSmtpServer>>;

/** Messages written with their bodies: nothing to render or attach. */
const plainContent: MailContent = {
  compose: async (_db, messages) => new Map(messages.map((m) => [m.id, { rendered: null, attachments: [] }])),
};

interface Written {
  id: string;
  about: string | null;
  subject: string;
}

/**
 * Writes, in one transaction as a partial reversal does, for each of `things` a chain of 2 or 3 messages about it,
 * interleaved with each other and with messages about nothing. Subjects are "<about> #<n>".
 */
async function writeMessages(t: TestApp, tag: string, things = 5): Promise<Written[]> {
  const plan: { about: string | null; subject: string }[] = [];
  for (let n = 1; n <= 3; n += 1)
    for (let i = 0; i < things; i += 1) {
      if (n === 3 && i % 2 === 1) continue;
      const about = `donation:DON-${tag}-${i}`;
      plan.push({ about, subject: `${about} #${n}` });
      if (i === 1) plan.push({ about: null, subject: `unrelated ${tag} ${n}` });
    }
  return t.db.transaction().execute(async (trx) => {
    const written: Written[] = [];
    for (const { about, subject } of plan) {
      const id = await enqueueMail(trx, {
        kind: 'test',
        recipient: uniqueEmail('order'),
        subject,
        text: subject,
        about,
      });
      written.push({ id, about, subject });
    }
    return written;
  });
}

/** Every message of `written` reached the server, and those about one thing in the order they were written. */
function expectWrittenOrder(smtp: OrderingSmtp, written: Written[]) {
  const subjects = new Set(written.map((w) => w.subject));
  const events = smtp.events.filter((e) => subjects.has(e.subject));
  for (const w of written)
    expect(events.filter((e) => e.subject === w.subject && e.event === 'accepted')).toHaveLength(1);
  for (const about of new Set(written.flatMap((w) => (w.about ? [w.about] : [])))) {
    const chain = written.filter((w) => w.about === about).map((w) => w.subject);
    const seen = events.filter((e) => chain.includes(e.subject));
    // Each message's data began only after the one before it about the same thing was accepted.
    expect(seen, about).toEqual(
      chain.flatMap((subject) => [
        { subject, event: 'data' },
        { subject, event: 'accepted' },
      ]),
    );
  }
}

async function allSent(t: TestApp, written: Written[]) {
  const ids = written.map((w) => w.id);
  return waitUntil(
    async () => {
      const rows = await t.db.selectFrom('mail_outbox').select('status').where('id', 'in', ids).execute();
      return rows.every((r) => r.status === 'sent');
    },
    { timeoutMs: 60_000, intervalMs: 50, what: 'every message sent' },
  );
}

describe('messages about one thing leave in the order they were written', () => {
  let smtp: OrderingSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await orderingSmtpServer();
    // Outside production, every message goes to the QA inbox: who receives it does not matter here.
    t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_REDIRECT_TO: 'qa@foundation.test' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** Instances on the app's database, each a queue of its own and a mail worker working it, until every message left. */
  async function deliverWith(instances: number, concurrency: number, batchSize: number, written: Written[]) {
    const policy = { ...mailPolicy(t.config), concurrency, batchSize };
    const started: { queue: JobQueue; worker: MailDeliveryWorker }[] = [];
    try {
      for (let i = 0; i < instances; i += 1) {
        const queue = await JobQueue.start(t.database);
        const worker = new MailDeliveryWorker(queue, t.database, policy, plainContent);
        started.push({ queue, worker });
        await worker.start();
      }
      await allSent(t, written);
    } finally {
      for (const { queue, worker } of started) {
        worker.stop();
        await queue.stop(30_000);
      }
    }
  }

  for (const concurrency of [1, 2, 4])
    for (const batchSize of [1, 2, 25])
      it(`one instance, MAIL_CONCURRENCY=${concurrency}, MAIL_BATCH_SIZE=${batchSize}`, async () => {
        const written = await writeMessages(t, `c${concurrency}b${batchSize}`);
        await deliverWith(1, concurrency, batchSize, written);
        expectWrittenOrder(smtp, written);
      }, 90_000);

  for (const batchSize of [1, 25])
    it(`two instances on one database, MAIL_CONCURRENCY=2, MAIL_BATCH_SIZE=${batchSize}`, async () => {
      const written = await writeMessages(t, `two${batchSize}`, 8);
      await deliverWith(2, 2, batchSize, written);
      expectWrittenOrder(smtp, written);
    }, 90_000);

  it('a message refused for now holds back the later ones about the same thing, without counting their tries', async () => {
    const written = await writeMessages(t, 'refused', 2);
    const first = written.find((w) => w.subject.endsWith('-0 #1'))!;
    const later = written.filter((w) => w.about === first.about && w !== first);
    const worker = new MailDeliveryWorker(
      t.jobQueue,
      t.database,
      { ...mailPolicy(t.config), batchSize: 25 },
      plainContent,
    );
    smtp.rejectWhen((subject) => (subject === first.subject ? 451 : null));
    try {
      await worker.runPending();
    } finally {
      smtp.rejectWhen(null);
    }
    const rows = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'status', 'attempts'])
      .where('about', '=', first.about)
      .orderBy('seq')
      .execute();
    expect(rows).toEqual([
      { id: first.id, status: 'pending', attempts: 1 },
      ...later.map((w) => ({ id: w.id, status: 'pending', attempts: 0 })),
    ]);
    expect(smtp.events.filter((e) => later.some((w) => w.subject === e.subject))).toEqual([]);
    // Their jobs wait without a try counted; unrelated messages of the batch left.
    const { rows: jobs } = await sql<{ state: string; retry_count: number }>`
      select state, retry_count from ${sql.table(`${QUEUE_SCHEMA}.job`)}
      where name = 'mail-delivery' and data->>'messageId' = any(${later.map((w) => w.id)}::text[])`.execute(t.db);
    expect(jobs).toEqual(later.map(() => ({ state: 'created', retry_count: 0 })));
    for (const w of written.filter((w) => w.about !== first.about))
      expect(
        smtp.events.filter((e) => e.subject === w.subject && e.event === 'accepted'),
        w.subject,
      ).toHaveLength(1);

    await worker.runPending({ now: true });
    expectWrittenOrder(smtp, written);
    worker.stop();
  }, 90_000);
});
