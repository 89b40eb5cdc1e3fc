import type { ReceiptFacts } from '../../domain/receipt.js';
import { receiptPdf, statementPdf } from './pdf.js';
import type { StatementFacts } from './statement-facts.js';

export type PdfTask = { kind: 'receipt'; facts: ReceiptFacts } | { kind: 'statement'; facts: StatementFacts };

/** The PDF thread's entry (pdf-thread.ts): renders one document from its facts. */
export default function render(task: PdfTask): Promise<Uint8Array> {
  return task.kind === 'receipt' ? receiptPdf(task.facts) : statementPdf(task.facts);
}
