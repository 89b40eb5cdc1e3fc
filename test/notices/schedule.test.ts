import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { readQueueStats } from '../../src/services/queues/queue-stats.js';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startSmtpServer, type SmtpServer } from '../receipts/support.js';
import { waitUntil } from '../reconciliation/support.js';
import { contactsOf, noticesOfKind, noticesWorker } from './support.js';

/**
 * The scheduled notices run as a job of the partner-notices queue, started as the server starts its workers: on
 * PostgreSQL two instances start together and the due notice is still sent once, with one next run waiting. (On
 * the embedded database there is only ever one instance.)
 */
const DAY = 86_400_000;
let smtp: SmtpServer;
let t: TestApp;
const queues: JobQueue[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, MAIL_REDIRECT_TO: 'qa@foundation.test' } });
}, 180_000);
afterAll(async () => {
  for (const queue of queues) await queue.stop();
  await t?.close();
  await smtp?.close();
}, 60_000);

describe('the partner-notices job', () => {
  it(
    'runs when instances start, sends a due notice once, and leaves one next run scheduled',
    { timeout: 90_000 },
    async () => {
      const partner = t.storefront.partner;
      const contacts = await contactsOf(t, partner);
      // A year and more after the demo credentials were issued: each is due for its scheduled rotation.
      t.clock.current = new Date(t.clock.now().getTime() + 400 * DAY);
      const instances = usingPostgres() ? 2 : 1;
      for (let i = 0; i < instances; i += 1) {
        const queue = await JobQueue.start(t.database);
        queues.push(queue);
        await noticesWorker(t, queue).start();
      }

      const [due] = await waitUntil(
        async () => {
          const notices = await noticesOfKind(t, partner, 'rotation-due');
          return notices.length > 0 && notices;
        },
        { what: 'the rotation-due notice' },
      );
      expect(due!.subject).toContain(t.storefront.clientId);
      expect(due!.messages.map((m) => m.recipient)).toEqual([contacts.technical]);
      // The run finishes by scheduling the next one, PARTNER_NOTICE_INTERVAL_SECONDS later; only one ever waits. When
      // the second instance asked for a run while the first ran, that run waits for a worker's next poll (30 s): the
      // finishing worker may look for it before pg-boss has recorded its own job complete, which it does unawaited.
      const next = await waitUntil(
        async () => {
          const stats = (await readQueueStats(t.db)).find((s) => s.queue === 'partner-notices')!;
          return stats.scheduled === 1 && stats;
        },
        { timeoutMs: 45_000, what: 'the one next run scheduled' },
      );
      expect(next.waiting).toBe(0);
      const outbox = await t.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('kind', '=', 'rotation-due')
        .where('recipient', '=', contacts.technical)
        .execute();
      expect(outbox).toHaveLength(1);
    },
  );
});
