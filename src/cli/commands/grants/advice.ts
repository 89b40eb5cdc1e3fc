import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { advicePolicy } from '../../../services/grants/advice/issue.js';
import { adviceDownload, sendAdvice, showAdvice, waitingAdvices } from '../../../services/operators/grant-advices.js';
import { InvalidInputError, OperatorError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { adviceText, waitingText } from './advice-output.js';

interface AdviceOptions {
  grant?: string;
  resend?: boolean;
  out?: string;
  waiting?: boolean;
}

/** grants advice */
export function registerGrantsAdvice(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('advice')
        .description("A grant's remittance advice: show it, write its PDF, send it again; or list those waiting")
        .option('--grant <reference>', "the grant's lodgement reference")
        .option('--resend', "send it to the club's finance contacts (again, or now if it was waiting; audited)")
        .option('--out <file>', 'write its PDF, as the club gets it, to this file (audited)')
        .option('--waiting', 'list the paid grants whose advice waits for a finance contact'),
    ),
  ).action((options: AdviceOptions, command: Command) =>
    ctx.run(command, async ({ ops, out, config, io }) => {
      if (options.waiting) {
        const waiting = await waitingAdvices(ops, 1000);
        out.emit(waiting, () => waitingText(waiting));
        return;
      }
      if (!options.grant) throw new InvalidInputError('--grant <reference> (or --waiting) is required.');
      if (options.out) {
        const path = resolve(io.cwd, options.out);
        if (existsSync(path)) throw new OperatorError(`Cannot write ${path}: the file exists.`);
        const pdf = await adviceDownload(ops, options.grant);
        await writeFile(path, pdf.content, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
          throw new OperatorError(`Cannot write ${path}: ${err.code === 'EEXIST' ? 'the file exists' : err.message}.`);
        });
        out.note(`Wrote ${path} (${pdf.content.length} bytes).`);
      }
      if (options.resend) {
        const sent = await sendAdvice(ops, options.grant, advicePolicy(config));
        out.note(
          sent.issued
            ? `The advice was issued now: ${sent.messages} message(s) queued (see "receipts outbox").`
            : `A copy is queued to ${sent.messages} finance contact(s) (see "receipts outbox").`,
        );
      }
      const view = await showAdvice(ops, options.grant);
      out.emit(view, () => adviceText(view));
    }),
  );
}
