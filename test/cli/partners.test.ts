import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { cli, ok, type Cli } from './harness.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let run: Cli;
beforeAll(async () => {
  database = await createTestDatabase();
  run = cli({ database, operator: 'alice', env: { QUOTA_DEFAULT_LIMIT: '600', QUOTA_DEFAULT_WINDOW_SECONDS: '60' } });
});
afterAll(async () => database.dispose());

describe('partners', () => {
  it('creates a partner with its channels and the deployment default quota, and records who did it', async () => {
    const partner = await ok(run, 'partners', 'create', 'Acme Store', '--channel', 'Storefront App');
    expect(partner).toMatchObject({
      name: 'Acme Store',
      status: 'active',
      channels: ['Storefront App'],
      quotaLimit: 600,
      quotaWindowSeconds: 60,
      usableCredentials: 0,
      failedAuthentications24h: 0,
    });

    const stored = await database.db
      .selectFrom('partners')
      .selectAll()
      .where('id', '=', partner.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'Acme Store', quota_limit: 600, quota_window_seconds: 60, status: 'active' });
    const audit = await ok(run, 'audit', 'list', '--subject', 'Acme Store');
    expect(audit).toEqual([
      expect.objectContaining({
        actor: 'alice',
        action: 'partner.create',
        subject: partner.id,
        details: expect.objectContaining({ channels: ['Storefront App'] }),
      }),
    ]);
  });

  it('takes several channels and an explicit quota', async () => {
    const partner = await ok(
      run,
      'partners',
      'create',
      'Club Registrations',
      '--channel',
      'Storefront App',
      '--channel',
      'Registration Integration',
      '--quota-limit',
      '100',
      '--quota-window',
      '10',
    );
    expect(partner).toMatchObject({
      channels: ['Registration Integration', 'Storefront App'],
      quotaLimit: 100,
      quotaWindowSeconds: 10,
    });
  });

  it('lists and shows partners, as a table by default', async () => {
    const table = await run('partners', 'list');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Acme Store');
    expect(table.stdout).toContain('600 per 60 s');
    const listed = await ok(run, 'partners', 'list');
    expect(listed.map((p: { name: string }) => p.name)).toEqual(['Acme Store', 'Club Registrations']);
    const shown = await ok(run, 'partners', 'show', 'Acme Store');
    expect(shown).toMatchObject({ name: 'Acme Store', credentials: [] });
    // The id works wherever a name does.
    expect((await ok(run, 'partners', 'show', shown.id)).name).toBe('Acme Store');
  });

  it('updates channels and quota, auditing before and after', async () => {
    const updated = await ok(
      run,
      'partners',
      'update',
      'Acme Store',
      '--add-channel',
      'Registration Integration',
      '--quota-limit',
      '1200',
    );
    expect(updated).toMatchObject({
      channels: ['Registration Integration', 'Storefront App'],
      quotaLimit: 1200,
      quotaWindowSeconds: 60,
    });
    const replaced = await ok(run, 'partners', 'update', 'Acme Store', '--channel', 'Registration Integration');
    expect(replaced.channels).toEqual(['Registration Integration']);
    const channels = await database.db
      .selectFrom('partner_channels')
      .select('channel')
      .where('partner_id', '=', replaced.id)
      .execute();
    expect(channels.map((c) => c.channel)).toEqual(['Registration Integration']);

    const [latest] = await ok(run, 'audit', 'list', '--action', 'partner.update', '--limit', '1');
    expect(latest.details.channels).toEqual({
      from: ['Registration Integration', 'Storefront App'],
      to: ['Registration Integration'],
    });
  });

  it('suspends and reactivates, refusing a repeat', async () => {
    expect((await ok(run, 'partners', 'suspend', 'Acme Store', '--reason', 'unpaid invoice')).status).toBe('suspended');
    expect((await ok(run, 'partners', 'list', '--status', 'suspended')).map((p: { name: string }) => p.name)).toEqual([
      'Acme Store',
    ]);
    const again = await run('partners', 'suspend', 'Acme Store');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('Error: Partner "Acme Store" is already suspended.\n');
    expect((await ok(run, 'partners', 'reactivate', 'Acme Store', '--operator', 'bob')).status).toBe('active');

    const entries = await ok(run, 'audit', 'list', '--subject', 'Acme Store', '--action', 'partner');
    expect(entries.slice(0, 2).map((e: { action: string; actor: string }) => [e.action, e.actor])).toEqual([
      ['partner.reactivate', 'bob'],
      ['partner.suspend', 'alice'],
    ]);
    expect(entries[1].details.reason).toBe('unpaid invoice');
  });

  it('explains mistakes on stderr with a non-zero exit and writes nothing', async () => {
    const before = await database.db.selectFrom('partners').select('id').execute();
    const cases: [string[], RegExp][] = [
      [
        ['partners', 'create', 'Acme Store', '--channel', 'Storefront App'],
        /A partner named "Acme Store" already exists/,
      ],
      [
        ['partners', 'create', 'Other', '--channel', 'Storefront app'],
        /Unknown channel "Storefront app". Known channels: "Registration Integration", "Storefront App"/,
      ],
      [['partners', 'show', 'Nobody'], /No partner with name or id "Nobody"/],
      [['partners', 'update', 'Acme Store', '--remove-channel', 'Registration Integration'], /at least one channel/],
      [['partners', 'update', 'Acme Store'], /Nothing to change/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(result.stdout).toBe('');
    }
    expect(await database.db.selectFrom('partners').select('id').execute()).toHaveLength(before.length);
  });

  it('reports errors as JSON on stderr in --json mode', async () => {
    const result = await run('partners', 'show', 'Nobody', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error: { message: expect.stringContaining('No partner with name or id "Nobody"') },
    });
  });

  it('answers a wrong command line with usage help and exit status 2', async () => {
    const missing = await run('partners', 'create', 'No Channel');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--channel <name>' not specified");
    const badNumber = await run('partners', 'create', 'X', '--channel', 'Storefront App', '--quota-limit', 'lots');
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toContain('expected a whole number');
    expect((await run('partners', 'frobnicate')).code).toBe(2);
  });

  it('has --help on every command', async () => {
    const help = await run('partners', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fundraiser-admin partners create [options] <name>');
    expect(help.stdout).toContain('--json');
    expect(help.stdout).toContain('--operator <name>');
  });
});
