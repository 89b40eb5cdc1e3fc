import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createOperator, getPage, signIn } from './support.js';

/**
 * Console lists read by key (docs/decisions/0074-operators-listings-by-key.md): a full page ends with a "Next page"
 * link keeping the filters, the pages together show every row once, and the mail outbox counts what is not sent
 * exactly and what was sent over its last days only.
 */
let t: TestApp;
let session: string;
beforeAll(async () => {
  t = await startTestApp();
  await createOperator(t, 'lists@foundation.example', 'viewer');
  ({ session } = await signIn(t, 'lists@foundation.example'));
}, 180_000);
afterAll(() => t?.close());

/** ghtml writes '=' and '&' in an attribute as entities, which browsers read back. */
const unescaped = (body: string) => body.replaceAll('&#61;', '=').replaceAll('&#38;', '&');
const nextOf = (body: string) =>
  /<p class="next-page"><a href="([^"]+)">Next page<\/a><\/p>/.exec(unescaped(body))?.[1];

/** Every page of a list from `url`, following its "Next page" links. */
async function walk(url: string): Promise<string[]> {
  const bodies: string[] = [];
  let next: string | undefined = url;
  while (next !== undefined && bodies.length < 20) {
    const page = await getPage(t, session, next);
    expect(page.statusCode).toBe(200);
    bodies.push(page.body);
    next = nextOf(page.body);
  }
  return bodies;
}
const count = (bodies: string[], pattern: RegExp) =>
  bodies.reduce((n, body) => n + (body.match(new RegExp(pattern, 'g'))?.length ?? 0), 0);

describe('the mail outbox', () => {
  it('pages failed messages by key, counts them exactly and the sent ones of the last days', async () => {
    const now = t.clock.now();
    await sql`
      insert into mail_outbox (kind, recipient, about, status, attempts, last_error, created_at)
      select 'test', 'donor@example.com', 'page-test:' || i, 'failed', 5, 'SMTP 550', ${now}
      from generate_series(1, 620) i`.execute(t.db);
    await sql`
      insert into mail_outbox (kind, recipient, about, status, attempts, sent_at, created_at)
      select 'test', 'donor@example.com', 'sent-test:' || i, 'sent', 1,
             ${now}::timestamptz - (case when i <= 3 then interval '1 day' else interval '30 days' end), ${now}
      from generate_series(1, 5) i`.execute(t.db);

    const bodies = await walk('/console/mail?status=failed');
    expect(bodies).toHaveLength(2);
    expect(nextOf(bodies[0]!)).toMatch(/^\/console\/mail\?status=failed&after=/);
    expect(count(bodies, /page-test:\d+</)).toBe(620);
    const seen = bodies.flatMap((b) => [...b.matchAll(/page-test:(\d+)</g)].map((m) => m[1]));
    expect(new Set(seen).size).toBe(620);

    const counts = bodies[0]!;
    expect(counts).toMatch(/<td>failed<\/td>\s*<td[^>]*>620<\/td>/);
    expect(counts).toMatch(/<td>sent in the last 7 days<\/td>\s*<td[^>]*>3<\/td>/);
  });

  it('refuses a cursor it did not give with a 400 page, not a failure', async () => {
    const page = await getPage(t, session, '/console/mail?after=nonsense');
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('after: is not a cursor this list gave');
  });
});

describe('the audit log', () => {
  it('pages entries newest first by key, each once, keeping the filters', async () => {
    await sql`
      insert into audit_log (at, actor, action, subject, details)
      select ${t.clock.now()}::timestamptz - i * interval '1 minute', 'pager@example.org', 'partner.update',
             'partner:pager', jsonb_build_object('n', i)
      from generate_series(1, 450) i`.execute(t.db);
    const bodies = await walk('/console/audit?actor=pager%40example.org');
    expect(bodies).toHaveLength(3);
    expect(nextOf(bodies[1]!)).toMatch(/^\/console\/audit\?actor=pager%40example.org&after=\d+$/);
    const seen = bodies.flatMap((b) =>
      [...b.matchAll(/(?:&quot;|&#34;)n(?:&quot;|&#34;):(\d+)/g)].map((m) => Number(m[1])),
    );
    expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
  });

  it('refuses an id that names no entry', async () => {
    const page = await getPage(t, session, '/console/audit?after=999999999');
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('is not the id of an audit entry');
  });
});
