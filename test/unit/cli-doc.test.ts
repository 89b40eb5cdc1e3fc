import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliContext } from '../../src/cli/context.js';
import { defaultIo } from '../../src/cli/io.js';
import { buildProgram } from '../../src/cli/main.js';
import { protectiveHeaders } from '../../src/http/plugins/security-headers.js';
import { ResponseHeaders } from '../../src/http/schemas/responses.js';
import { AuditActions } from '../../src/services/operators/audit.js';

/**
 * The operators' and partners' references keep up with the code: every command of `fundraiser-admin` (walked from
 * the real commander program) has its line in docs/cli.md, every audit action (the one list the audit writer's type
 * requires) is in docs/cli.md's list of actions, and every response header the partner API sets is in docs/api.md.
 * A new command, action or header without its line fails here.
 */
const root = new URL('../../', import.meta.url).pathname;
const doc = (path: string) => readFileSync(join(root, path), 'utf8');

/** The full path ("partners contact-add") of every command that runs something: the leaves of the tree. */
function commandPaths(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return sub.commands.length === 0 ? [path.join(' ')] : commandPaths(sub, path);
  });
}

/** The TypeScript files under a folder of the repository. */
function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

describe('docs/cli.md', () => {
  const cli = doc('docs/cli.md');
  const program = buildProgram(new CliContext(defaultIo({})), false);
  const paths = commandPaths(program);

  it('has a line for every command of fundraiser-admin', () => {
    expect(paths.length).toBeGreaterThan(50);
    expect(paths).toContain('partners contact-add');
    // A command's line starts with its full path in code: `partners contact-add <partner> …`.
    const missing = paths.filter((name) => !new RegExp(`\`${escape(name)}[\\s\`]`).test(cli));
    expect(missing).toEqual([]);
  });

  it('lists every audit action in its audit section, and no action the code does not write', () => {
    const section = cli.slice(cli.indexOf('\n## Audit'));
    const actions = Object.values(AuditActions);
    expect(actions.filter((action) => !section.includes(`\`${action}\``))).toEqual([]);
    const [from, to] = [section.indexOf('Actions:'), section.indexOf('Subjects are')];
    const listed = from >= 0 && to > from ? section.slice(from, to) : section;
    const documented = [...listed.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]);
    expect(documented.filter((action) => !(actions as readonly string[]).includes(action!))).toEqual([]);
  });

  it('has every audit entry written through the one typed writer, so the list above is every action', () => {
    const writers = [...sources('src'), ...sources('scripts').filter((f) => f.endsWith('.ts'))].filter((file) =>
      /insertAuditEntry\(|insertInto\(\s*'audit_log'\s*\)|insert\s+into\s+audit_log/i.test(doc(file)),
    );
    expect(writers.map((file) => relative(root, join(root, file))).sort()).toEqual([
      'src/infrastructure/repositories/audit-log.ts',
      'src/services/operators/audit.ts',
    ]);
  });
});

describe('docs/api.md', () => {
  const api = doc('docs/api.md').toLowerCase();

  /** Header names the partner API sets: in code (`.header('…'`, an ApiError's headers), documented, protective. */
  function responseHeaders(): string[] {
    const names = new Set<string>();
    const files = [...sources('src/http'), 'src/app.ts', ...sources('src/services'), ...sources('src/infrastructure')];
    for (const file of files) {
      const text = doc(file);
      for (const m of text.matchAll(/\.header\(\s*['"]([A-Za-z][A-Za-z0-9-]*)['"]/g)) names.add(m[1]!.toLowerCase());
      for (const m of text.matchAll(/new ApiError\([^;]*?\{\s*['"]([a-z][a-z0-9-]*)['"]\s*:/g))
        names.add(m[1]!.toLowerCase());
    }
    for (const group of Object.values(ResponseHeaders))
      for (const name of Object.keys(group)) names.add(name.toLowerCase());
    for (const [name] of protectiveHeaders(true)) names.add(name.toLowerCase());
    return [...names].sort();
  }

  it('names every response header the API sets', () => {
    const headers = responseHeaders();
    for (const known of ['x-correlation-id', 'retry-after', 'deprecation', 'sunset', 'link', 'x-content-type-options'])
      expect(headers).toContain(known);
    expect(headers.filter((name) => !api.includes(`\`${name}`))).toEqual([]);
  });

  it('describes POST /credentials/rotate', () => {
    expect(api).toContain('post /credentials/rotate');
  });
});

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
