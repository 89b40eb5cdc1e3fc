import type { Command } from 'commander';
import { correctPerson, type PersonCorrection } from '../../../services/privacy/correction.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** privacy correct */
export function registerPrivacyCorrect(privacy: Command, ctx: CliContext) {
  withOperator(
    withJson(
      privacy
        .command('correct')
        .description(
          'Correct a person’s details on every record: donations, mandates, and each receipt in force voided and ' +
            'reissued to the corrected address (audited)',
        )
        .requiredOption('--email <address>', 'the address the records hold now')
        .option('--new-email <address>', 'the corrected address')
        .option('--first-name <name>', 'the corrected first name')
        .option('--last-name <name>', 'the corrected last name')
        .option('--business-name <name>', 'the corrected business name ("" for none)')
        .requiredOption('--reason <text>', 'why, kept with each correction and in the audit log'),
    ),
  ).action((options: PersonCorrection, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await correctPerson(ops, options);
      out.emit(
        result,
        () =>
          `Corrected ${result.donations} donation(s) and ${result.mandates} mandate(s); ` +
          (result.reissued.length === 0
            ? 'no receipt was in force.'
            : `receipts reissued and queued to the donor: ${result.reissued.join(', ')}.`),
      );
    }),
  );
}
