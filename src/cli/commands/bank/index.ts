import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerBankConfirm } from './confirm.js';
import { registerBankImport } from './import.js';
import { registerBankLines } from './lines.js';
import { registerBankMatch } from './match.js';
import { registerBankMatches } from './matches.js';
import { registerBankReject } from './reject.js';
import { registerBankStatements } from './statements.js';
import { registerBankSuggestions } from './suggestions.js';
import { registerBankUnmatch } from './unmatch.js';
import { registerBankUnpaid } from './unpaid.js';

/**
 * bank import | statements | lines | unpaid | suggestions | confirm | reject | matches | unmatch | match: bank
 * statements matched to remittance entries, and operators' decisions on the matches (docs/bank-statements.md).
 */
export function registerBank(program: Command, ctx: CliContext) {
  const bank = program
    .command('bank')
    .description('Bank statements: import, lines and entries not matched, suggestions to confirm or reject, unmatch');

  registerBankImport(bank, ctx);
  registerBankStatements(bank, ctx);
  registerBankLines(bank, ctx);
  registerBankUnpaid(bank, ctx);
  registerBankSuggestions(bank, ctx);
  registerBankConfirm(bank, ctx);
  registerBankReject(bank, ctx);
  registerBankMatches(bank, ctx);
  registerBankUnmatch(bank, ctx);
  registerBankMatch(bank, ctx);
}
