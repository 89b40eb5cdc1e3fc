import { basename } from 'node:path';
import { replaceDirectory } from '../../../infrastructure/repositories/bsb-directory.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { InvalidInputError } from '../../operators/operator-errors.js';
import { readBsbFile, type SkippedLine } from './bsb-file.js';

export interface BsbImportResult {
  file: string;
  /** Branches now in the directory. */
  imported: number;
  /** Branches the import replaced. */
  replaced: number;
  skipped: SkippedLine[];
}

/** Skipped lines named in a refusal: enough to see what is wrong with the file. */
const NAMED_IN_REFUSAL = 5;

/**
 * Imports the BSB directory the banks publish, replacing the one before whole, in one transaction with its audit
 * entry (`club.bsb_import`). Lines that are not a branch are skipped and reported by number; a file without a single
 * branch is refused and the directory left as it was.
 */
export async function importBsbDirectory(
  ctx: OperatorContext,
  file: { fileName: string; content: string },
): Promise<BsbImportResult> {
  const { branches, skipped } = readBsbFile(file.content);
  if (branches.length === 0) {
    const named = skipped
      .slice(0, NAMED_IN_REFUSAL)
      .map((s) => `line ${s.line} ${s.reason}`)
      .join('; ');
    throw new InvalidInputError(
      `${file.fileName} holds no valid BSB line (a line is "BSB","Bank code","Branch name","Address","Suburb",` +
        `"State","Postcode","Payments flags" with the BSB written NNN-NNN)${named ? `: ${named}` : ''}. ` +
        'The BSB directory was not changed.',
    );
  }
  return inTransaction(ctx, async (tx) => {
    const replaced = await replaceDirectory(tx.db, branches, tx.now());
    await audit(tx, AuditActions.clubBsbImport, basename(file.fileName), {
      file: file.fileName,
      imported: branches.length,
      replaced,
      skipped: skipped.length,
      skippedLines: skipped.slice(0, 100).map((s) => s.line),
    });
    return { file: file.fileName, imported: branches.length, replaced, skipped };
  });
}
