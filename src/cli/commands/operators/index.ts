import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerOperatorsCreate } from './create.js';
import { registerOperatorsList } from './list.js';
import { registerOperatorsResetPassword } from './reset-password.js';
import { registerOperatorsDisable } from './disable.js';

/** operators create | list | reset-password | disable: the people who may sign in to the web console. */
export function registerOperators(program: Command, ctx: CliContext) {
  const operators = program
    .command('operators')
    .description('Accounts of the web console (/console): create, list, reset a password, disable');

  registerOperatorsCreate(operators, ctx);
  registerOperatorsList(operators, ctx);
  registerOperatorsResetPassword(operators, ctx);
  registerOperatorsDisable(operators, ctx);
}
