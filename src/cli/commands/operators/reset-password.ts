import type { Command } from 'commander';
import { resetOperatorPassword } from '../../../services/console/operator-accounts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { withPassword, passwordFrom, generatedNote, operatorText } from './shared.js';

/** operators reset-password */
export function registerOperatorsResetPassword(operators: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withPassword(
        operators
          .command('reset-password')
          .description('Set a new password (generated unless --password-stdin); ends their sessions, lifts a lock')
          .argument('<email>'),
      ),
    ),
  ).action((email: string, options: { passwordStdin?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      const { password, generated } = await passwordFrom(io, options.passwordStdin);
      const operator = await resetOperatorPassword(ops, email, password);
      out.emit({ ...operator, ...(generated ? { password } : {}) }, () =>
        ['Password reset; their sessions are ended.', operatorText(operator), generatedNote(password, generated)].join(
          '\n',
        ),
      );
    }),
  );
}
