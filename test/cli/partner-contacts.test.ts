import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { cli, ok, type Cli } from './harness.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let run: Cli;
beforeAll(async () => {
  database = await createTestDatabase();
  run = cli({ database, operator: 'alice' });
  await ok(run, 'partners', 'create', 'Contact Co', '--channel', 'Storefront App');
});
afterAll(async () => database.dispose());

describe('partner contacts', () => {
  it('adds, lists and removes contacts, audited, once per e-mail and role', async () => {
    const added = await ok(
      run,
      'partners',
      'contact-add',
      'Contact Co',
      '--role',
      'security',
      '--name',
      'Sec Lead',
      '--email',
      'sec@contact.example',
    );
    expect(added).toMatchObject({ role: 'security', name: 'Sec Lead', email: 'sec@contact.example' });
    const again = await ok(
      run,
      'partners',
      'contact-add',
      'Contact Co',
      '--role',
      'security',
      '--name',
      'Sec Lead',
      '--email',
      'SEC@contact.example',
    );
    expect(again.id).toBe(added.id);
    await ok(
      run,
      'partners',
      'contact-add',
      'Contact Co',
      '--role',
      'finance',
      '--name',
      'Fin',
      '--email',
      'fin@contact.example',
    );
    expect((await ok<{ role: string }[]>(run, 'partners', 'contacts', 'Contact Co')).map((c) => c.role)).toEqual([
      'finance',
      'security',
    ]);
    await ok(run, 'partners', 'contact-remove', 'Contact Co', added.id);
    expect((await ok<{ role: string }[]>(run, 'partners', 'contacts', 'Contact Co')).map((c) => c.role)).toEqual([
      'finance',
    ]);
    const audit = await ok<{ action: string }[]>(run, 'audit', 'list', '--subject', 'Contact Co');
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['partner.contact_add', 'partner.contact_remove']),
    );
    expect(audit.filter((a) => a.action === 'partner.contact_add')).toHaveLength(2);
  });

  it('refuses an invalid contact, naming what is wrong', async () => {
    const refused = await run(
      'partners',
      'contact-add',
      'Contact Co',
      '--role',
      'technical',
      '--name',
      ' ',
      '--email',
      'nope',
      '--json',
    );
    expect(refused.code).not.toBe(0);
    expect(JSON.parse(refused.stderr).error.message).toBe(
      'The contact was not added: name must be 1 to 200 characters; email must be an e-mail address.',
    );
  });
});

describe('api deprecations', () => {
  it('announces a deprecation at least 30 days ahead and lists it', async () => {
    const soon = await run(
      'api',
      'deprecate',
      '--route',
      'GET /remittances',
      '--sunset',
      new Date(Date.now() + 10 * 86_400_000).toISOString(),
      '--description',
      'x',
      '--json',
    );
    expect(soon.code).not.toBe(0);
    expect(JSON.parse(soon.stderr).error.message).toContain('at least 30 days away');
    const sunset = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const announced = await ok(
      run,
      'api',
      'deprecate',
      '--route',
      'GET /remittances',
      'GET /remittances/{batchId}',
      '--sunset',
      sunset,
      '--description',
      'Use the event log.',
    );
    expect(announced).toMatchObject({
      routes: ['GET /remittances', 'GET /remittances/{batchId}'],
      description: 'Use the event log.',
    });
    expect(await ok(run, 'api', 'deprecations')).toEqual([expect.objectContaining({ id: announced.id })]);
  });
});
