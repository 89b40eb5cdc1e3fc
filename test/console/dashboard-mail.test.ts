import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateMessage } from '../../src/infrastructure/repositories/mail-outbox.js';
import { enqueueMail } from '../../src/services/mail/outbox.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createOperator, getPage, signIn } from './support.js';

/** The dashboard's figure of failed mail, linked to the Mail page filtered to failed messages. */
describe('failed mail on the dashboard', () => {
  let t: TestApp;
  let session: string;
  beforeAll(async () => {
    t = await startTestApp();
    await createOperator(t, 'mail@foundation.example', 'viewer');
    ({ session } = await signIn(t, 'mail@foundation.example'));
  });
  afterAll(() => t?.close());

  const write = (subject: string) =>
    t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        kind: 'test',
        recipient: 'donor@example.com',
        subject,
        text: subject,
        about: `test:${subject}`,
      }),
    );
  const failedFigure = (body: string) => /<dt>Failed messages<\/dt>\s*<dd>(\d+)<\/dd>/.exec(body)?.[1];

  it('counts the messages that failed for good, and links to them', async () => {
    expect(failedFigure((await getPage(t, session, '/console')).body)).toBe('0');
    const [a, b, , sent] = [
      await write('failed-a'),
      await write('failed-b'),
      await write('still-pending'),
      await write('sent'),
    ];
    for (const id of [a, b])
      await updateMessage(t.db, id, { status: 'failed', last_error: 'SMTP 550 mailbox refused' });
    await updateMessage(t.db, sent, { status: 'sent', sent_at: new Date(), delivered_to: 'donor@example.com' });

    const dashboard = await getPage(t, session, '/console');
    expect(dashboard.statusCode).toBe(200);
    expect(failedFigure(dashboard.body)).toBe('2');
    // ghtml writes '=' in an attribute as '&#61;', which browsers read back as '='.
    expect(dashboard.body.replaceAll('&#61;', '=')).toContain('href="/console/mail?status=failed"');

    const mail = await getPage(t, session, '/console/mail?status=failed');
    expect(mail.statusCode).toBe(200);
    expect(mail.body).toContain('test:failed-a');
    expect(mail.body).toContain('test:failed-b');
    expect(mail.body).not.toContain('test:still-pending');
  });
});
