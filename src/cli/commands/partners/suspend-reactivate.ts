import type { Command } from 'commander';
import { setPartnerStatus } from '../../../services/operators/partners.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { partnerJson } from './shared.js';

/** partners suspend-reactivate */
export function registerPartnersSuspendReactivate(partners: Command, ctx: CliContext) {
  for (const [verb, status, description] of [
    [
      'suspend',
      'suspended',
      'Suspend a partner: every call with any of its credentials gets 401 (within 60 s on every instance)',
    ],
    ['reactivate', 'active', 'Reactivate a suspended partner: its credentials work again as they were'],
  ] as const) {
    withOperator(
      withJson(
        partners
          .command(verb)
          .description(description)
          .argument('<partner>', 'partner name or id')
          .option('--reason <text>', 'why, for the audit log'),
      ),
    ).action((ref: string, options: { reason?: string }, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const partner = await setPartnerStatus(ops, ref, status, options.reason);
        out.emit(partnerJson(partner), () => `Partner ${JSON.stringify(partner.name)} is now ${partner.status}.`);
      }),
    );
  }
}
