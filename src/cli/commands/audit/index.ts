import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerAuditList } from './list.js';

/** audit list */
export function registerAudit(program: Command, ctx: CliContext) {
  const audit = program
    .command('audit')
    .description('The record of every change made with this tool: what, when and by whom');

  registerAuditList(audit, ctx);
}
