/** What the subcommands of this group share: options and how results are shown. */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { OperatorView } from '../../../services/console/operator-accounts.js';
import type { CliIo } from '../../io.js';
import { fields } from '../../output.js';

export const withPassword = (command: Command) =>
  command.option('--password-stdin', 'read the password from standard input (never give it as an argument)');

/** A password from stdin (first line), or a generated one: never from the command line, where `ps` shows it. */
export async function passwordFrom(io: CliIo, fromStdin?: boolean): Promise<{ password: string; generated: boolean }> {
  if (!fromStdin) return { password: randomBytes(18).toString('base64url'), generated: true };
  const password = (await io.readStdin()).split(/\r?\n/)[0] ?? '';
  return { password, generated: false };
}

export const generatedNote = (password: string, generated: boolean) =>
  generated ? `Password (shown once, hand it over securely): ${password}` : '';

export const operatorText = (o: OperatorView) =>
  fields([
    ['E-mail', o.email],
    ['Role', o.role],
    ['Status', o.status],
    ['Locked until', o.lockedUntil],
  ]);
