import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { TestClock } from '../helpers/test-app.js';
import { cli, ok, type Cli } from './harness.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let run: Cli;
const clock = new TestClock(new Date('2026-11-21T09:00:00Z'));
beforeAll(async () => {
  database = await createTestDatabase();
  run = cli({ database, now: clock.now, operator: 'os-user-kim' });
});
afterAll(async () => database.dispose());

describe('channels', () => {
  it('lists the two channels of the spec by default', async () => {
    expect((await ok(run, 'channels', 'list')).map((c: { name: string }) => c.name)).toEqual([
      'Registration Integration',
      'Storefront App',
    ]);
  });

  it('adds a channel that partners can then be issued', async () => {
    expect(await ok(run, 'channels', 'add', 'Events Platform')).toEqual({ name: 'Events Platform' });
    await ok(run, 'partners', 'create', 'Events Co', '--channel', 'Events Platform');
    const listed = await ok(run, 'channels', 'list');
    expect(listed.find((c: { name: string }) => c.name === 'Events Platform')).toMatchObject({
      partners: 1,
      products: 0,
    });

    const again = await run('channels', 'add', 'Events Platform');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('Error: Channel "Events Platform" already exists.\n');
    expect((await run('channels', 'add', ' Padded ')).stderr).toContain('must not start or end with spaces');
  });
});

describe('audit', () => {
  it('records every change with what, when and who: the OS user unless --operator names someone', async () => {
    clock.advance(60_000);
    await ok(run, 'partners', 'suspend', 'Events Co', '--operator', 'lee');
    const entries = await ok(run, 'audit', 'list');
    expect(entries.map((e: { action: string; actor: string; at: string }) => [e.action, e.actor, e.at])).toEqual([
      ['partner.suspend', 'lee', '2026-11-21T09:01:00.000Z'],
      ['partner.create', 'os-user-kim', '2026-11-21T09:00:00.000Z'],
      ['channel.add', 'os-user-kim', '2026-11-21T09:00:00.000Z'],
    ]);
  });

  it('filters by operator, action family, subject and time', async () => {
    expect((await ok(run, 'audit', 'list', '--operator', 'lee')).map((e: { action: string }) => e.action)).toEqual([
      'partner.suspend',
    ]);
    expect((await ok(run, 'audit', 'list', '--action', 'partner')).map((e: { action: string }) => e.action)).toEqual([
      'partner.suspend',
      'partner.create',
    ]);
    expect(
      (await ok(run, 'audit', 'list', '--subject', 'Events Platform')).map((e: { action: string }) => e.action),
    ).toEqual(['channel.add']);
    expect(
      (await ok(run, 'audit', 'list', '--since', '2026-11-21T09:00:30Z')).map((e: { action: string }) => e.action),
    ).toEqual(['partner.suspend']);
    expect(await ok(run, 'audit', 'list', '--until', '2026-11-20')).toEqual([]);
    expect(await ok(run, 'audit', 'list', '--limit', '1')).toHaveLength(1);
    const table = await run('audit', 'list');
    expect(table.stdout).toMatch(/2026-11-21T09:01:00Z +│ lee +│ partner\.suspend/);
  });

  it('a failed change leaves no audit entry', async () => {
    const before = (await ok(run, 'audit', 'list')).length;
    expect((await run('partners', 'suspend', 'Events Co')).code).toBe(1);
    expect((await run('channels', 'add', 'Events Platform')).code).toBe(1);
    expect(await ok(run, 'audit', 'list')).toHaveLength(before);
  });

  it('refuses a blank operator name', async () => {
    const result = await run('channels', 'add', 'Other', '--operator', ' ');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--operator must name who is making the change');
  });
});

describe('help', () => {
  it('every command group and every command answers --help, and each command offers --json', async () => {
    const subcommands = (help: string) =>
      [...(help.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z-]+)/gm)]
        .map((m) => m[1]!)
        .filter((name) => name !== 'help');
    const root = await run('--help');
    expect(root.code).toBe(0);
    const groups = subcommands(root.stdout);
    expect(groups).toEqual(
      expect.arrayContaining(['partners', 'credentials', 'accounts', 'channels', 'donations', 'audit']),
    );
    for (const group of groups) {
      const groupHelp = await run(group, '--help');
      expect(groupHelp.code, group).toBe(0);
      const commands = subcommands(groupHelp.stdout);
      // A command without subcommands (queues) is a command itself: it offers --json directly.
      if (commands.length === 0) expect(groupHelp.stdout, group).toContain('--json');
      for (const command of commands) {
        const help = await run(group, command, '--help');
        expect(help.code, `${group} ${command}`).toBe(0);
        // A group within a group (partners users): each of its commands offers --json.
        const nested = subcommands(help.stdout);
        if (nested.length === 0) expect(help.stdout, `${group} ${command}`).toContain('--json');
        for (const leaf of nested) {
          const leafHelp = await run(group, command, leaf, '--help');
          expect(leafHelp.code, `${group} ${command} ${leaf}`).toBe(0);
          expect(leafHelp.stdout, `${group} ${command} ${leaf}`).toContain('--json');
        }
      }
    }
  });
});
