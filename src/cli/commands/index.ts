import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerAccounts } from './accounts.js';
import { registerAudit } from './audit.js';
import { registerChannels } from './channels.js';
import { registerCredentials } from './credentials.js';
import { registerDonations } from './donations.js';
import { registerPartners } from './partners.js';
import { registerRemittances } from './remittances.js';

/** Adds one group of subcommands (`fundraiser-admin <group> <command>`) to the program. */
export type CommandGroup = (program: Command, ctx: CliContext) => void;

/** Every command group, in the order `--help` lists them. A new group is one line here. */
export const commandGroups: CommandGroup[] = [registerPartners, registerCredentials, registerAccounts, registerChannels, registerDonations, registerRemittances, registerAudit];
