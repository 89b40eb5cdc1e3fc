import type { Command } from 'commander';
import { disableOperator } from '../../../services/console/operator-accounts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { operatorText } from './shared.js';

/** operators disable */
export function registerOperatorsDisable(operators: Command, ctx: CliContext) {
  withOperator(
    withJson(
      operators
        .command('disable')
        .description('Stop an operator signing in and end their sessions at once (reset-password re-enables)')
        .argument('<email>')
        .option('--reason <text>', 'recorded in the audit log'),
    ),
  ).action((email: string, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const operator = await disableOperator(ops, email, options.reason);
      out.emit(operator, () => `Operator disabled.\n${operatorText(operator)}`);
    }),
  );
}
