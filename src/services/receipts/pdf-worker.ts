import type { AdviceFacts } from '../../domain/grant-advice.js';
import type { ReceiptFacts } from '../../domain/receipt.js';
import { advicePdf } from '../grants/advice/pdf.js';
import { receiptPdf, statementPdf } from './pdf.js';
import type { StatementFacts } from './statement-facts.js';

export type PdfTask =
  | { kind: 'receipt'; facts: ReceiptFacts }
  | { kind: 'statement'; facts: StatementFacts }
  | { kind: 'grant-advice'; facts: AdviceFacts };

/** The PDF thread's entry (pdf-thread.ts): renders one document from its facts. */
export default function render(task: PdfTask): Promise<Uint8Array> {
  if (task.kind === 'grant-advice') return advicePdf(task.facts);
  return task.kind === 'receipt' ? receiptPdf(task.facts) : statementPdf(task.facts);
}
