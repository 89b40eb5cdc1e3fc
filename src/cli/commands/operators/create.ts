import { Option, type Command } from 'commander';
import { CONSOLE_ROLES, createOperator } from '../../../services/console/operator-accounts.js';
import { InvalidInputError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { withPassword, passwordFrom, generatedNote, operatorText } from './shared.js';

/** operators create */
export function registerOperatorsCreate(operators: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withPassword(
        operators
          .command('create')
          .description('Create a console operator; without --password-stdin a password is generated and shown once')
          .argument('<email>', "the operator's e-mail address, their sign-in name")
          .addOption(new Option('--role <role>', 'admin changes things; viewer only reads').choices(CONSOLE_ROLES)),
      ),
    ),
  ).action((email: string, options: { role?: string; passwordStdin?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      if (!options.role) throw new InvalidInputError('Give --role admin or --role viewer.');
      const { password, generated } = await passwordFrom(io, options.passwordStdin);
      const created = await createOperator(ops, { email, role: options.role, password });
      out.emit({ ...created, ...(generated ? { password } : {}) }, () =>
        [`Operator created.`, operatorText(created), generatedNote(password, generated)].join('\n'),
      );
    }),
  );
}
