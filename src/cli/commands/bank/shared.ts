/** What the subcommands of `bank` share: the matching settings, and how lines, entries and matches are shown. */
import { bankMatchingSettings, type Config } from '../../../config/index.js';
import type { ImportResult } from '../../../services/bank-statements/import-statement.js';
import type {
  BankLine,
  BankMatch,
  BankStatement,
  OpenSuggestion,
  UnpaidEntry,
} from '../../../services/bank-statements/listings.js';
import type { MatchingRun } from '../../../services/bank-statements/matching.js';
import { fields, formatAud, type Column } from '../../output.js';

export const matchingSettings = (config: Config) => bankMatchingSettings(config);

export const statementColumns: Column<BankStatement>[] = [
  { header: 'Statement', value: (s) => s.id },
  { header: 'File', value: (s) => s.file },
  { header: 'Layout', value: (s) => s.layout },
  { header: 'Lines read', value: (s) => s.linesRead },
  { header: 'Added', value: (s) => s.linesAdded },
  { header: 'Booked', value: (s) => (s.firstBookedOn ? `${s.firstBookedOn} to ${s.lastBookedOn}` : null) },
  { header: 'Imported', value: (s) => s.importedAt },
  { header: 'By', value: (s) => s.importedBy },
];

export const lineColumns: Column<BankLine>[] = [
  { header: 'Line', value: (l) => l.id },
  { header: 'Booked', value: (l) => l.bookedOn },
  { header: 'Age (days)', value: (l) => l.ageDays },
  { header: 'AUD', value: (l) => `${l.direction === 'debit' ? '-' : ''}${formatAud(l.amountCents)}` },
  { header: 'Reference', value: (l) => l.reference },
  { header: 'Description', value: (l) => l.description },
  { header: 'Account', value: (l) => l.account },
  { header: 'From', value: (l) => `${l.file} line ${l.lineNo}` },
  { header: 'Match', value: (l) => l.matchId },
];

export const unpaidColumns: Column<UnpaidEntry>[] = [
  { header: 'Batch', value: (e) => e.batchId },
  { header: 'Index', value: (e) => e.index },
  { header: 'Bank reference', value: (e) => e.bankReferenceId },
  { header: 'AUD', value: (e) => formatAud(e.amountCents) },
  { header: 'Partner', value: (e) => e.partner },
  { header: 'Received', value: (e) => e.receivedAt },
  { header: 'Age (days)', value: (e) => e.ageDays },
];

export const suggestionColumns: Column<OpenSuggestion>[] = [
  { header: 'Suggestion', value: (s) => s.id },
  { header: 'Score', value: (s) => s.score },
  { header: 'Rule', value: (s) => s.rule },
  {
    header: 'Lines',
    value: (s) => s.lines.map((l) => `#${l.id} ${l.bookedOn} ${formatAud(l.amountCents)} ${l.reference ?? ''}`.trim()),
  },
  {
    header: 'Entries',
    value: (s) => s.entries.map((e) => `${e.batchId}#${e.index} ${e.bankReferenceId} ${formatAud(e.amountCents)}`),
  },
  { header: 'Why', value: (s) => s.reasons },
];

export const matchColumns: Column<BankMatch>[] = [
  { header: 'Match', value: (m) => m.id },
  { header: 'How', value: (m) => `${m.method} (${m.rule})` },
  { header: 'Lines', value: (m) => m.lineIds },
  { header: 'Entries', value: (m) => m.entries },
  { header: 'AUD', value: (m) => formatAud(m.lineCents) },
  { header: 'Decided', value: (m) => `${m.decidedAt.toISOString()} by ${m.decidedBy}` },
  { header: 'Undone', value: (m) => (m.unmatched ? `by ${m.unmatched.by}: ${m.unmatched.reason ?? ''}` : null) },
];

export const runText = (run: Partial<MatchingRun>) =>
  `Matched automatically: ${run.automatic ?? 0}; open suggestions: ${run.suggestions ?? 0}; ` +
  `credit lines still unmatched: ${run.unmatchedLines ?? 0} (see \`bank suggestions\` and \`bank lines --unmatched\`).`;

export function importText(result: ImportResult): string {
  if (result.alreadyImported)
    return (
      `${result.file} was imported before (${result.alreadyImported.at.toISOString()} by ` +
      `${result.alreadyImported.by}): nothing was added.`
    );
  return [
    fields([
      ['File', result.file],
      ['Layout', result.layout],
      ['Statement', result.statementId],
      ['Lines read', result.linesRead],
      ['Lines added', result.linesAdded],
      ['Already imported (overlap)', result.duplicates],
      ['Not booked yet (left out)', result.skipped],
    ]),
    runText(result),
  ].join('\n');
}
