import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerAccounts } from './accounts/index.js';
import { registerApi } from './api/index.js';
import { registerAudit } from './audit/index.js';
import { registerBank } from './bank/index.js';
import { registerChannels } from './channels/index.js';
import { registerMigrate } from './migrate/index.js';
import { registerCredentials } from './credentials/index.js';
import { registerDebits } from './debits/index.js';
import { registerDonations } from './donations/index.js';
import { registerGrants } from './grants/index.js';
import { registerOperators } from './operators/index.js';
import { registerPartners } from './partners/index.js';
import { registerPrivacy } from './privacy/index.js';
import { registerQueues } from './queues.js';
import { registerReceipts } from './receipts/index.js';
import { registerRecurring } from './recurring/index.js';
import { registerRemittances } from './remittances/index.js';
import { registerReversals } from './reversals/index.js';
import { registerWebhooks } from './webhooks/index.js';

/** Adds one group of subcommands (`fundraiser-admin <group> <command>`) to the program. */
export type CommandGroup = (program: Command, ctx: CliContext) => void;

/** Every command group, in the order `--help` lists them. A new group is one line here. */
export const commandGroups: CommandGroup[] = [
  registerPartners,
  registerCredentials,
  registerAccounts,
  registerChannels,
  registerDonations,
  registerRemittances,
  registerReversals,
  registerReceipts,
  registerBank,
  registerRecurring,
  registerDebits,
  registerGrants,
  registerPrivacy,
  registerWebhooks,
  registerQueues,
  registerAudit,
  registerApi,
  registerOperators,
  registerMigrate,
];
