import { adviceLines, ADVICE_SAMPLE_MARK, type AdviceFacts } from '../../../domain/grant-advice.js';
import { documentOf, header, notes, winAnsi } from '../../receipts/pdf.js';

/** Where each column of the advice's table starts (points from the left edge of A4) and how wide it is. */
const COLUMNS = [
  { x: 56, width: 58 },
  { x: 116, width: 200 },
  { x: 318, width: 150 },
  { x: 470, width: 69, align: 'right' as const },
];
const BOTTOM = 841.89 - 56 - 14;

function row(doc: PDFKit.PDFDocument, cells: string[], bold = false) {
  if (doc.y > BOTTOM) doc.addPage();
  const y = doc.y;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
  cells.forEach((cell, i) => {
    const column = COLUMNS[i]!;
    doc.text(winAnsi(cell), column.x, y, { width: column.width, align: column.align ?? 'left', lineBreak: false });
  });
  doc.x = 56;
  doc.y = y + 13;
}

/**
 * A grant's remittance advice (and, for a club registered for GST, its recipient-created tax invoice) as a PDF, laid
 * out as receipts are (../../receipts/pdf.ts) and made from facts alone: the same facts give the same bytes.
 */
export async function advicePdf(facts: AdviceFacts): Promise<Buffer> {
  const { title, lines, items, summary, notes: footer } = adviceLines(facts);
  const { doc, bytes } = await documentOf(title, facts.issuedOn);
  header(doc, facts, title, ADVICE_SAMPLE_MARK);
  for (const [label, value] of lines) {
    doc.font('Helvetica-Bold').fontSize(11).text(`${label}: `, { continued: true });
    doc.font('Helvetica').text(winAnsi(value));
  }
  doc.moveDown(1);
  row(doc, ['Date', 'Reference', 'Donor', 'Amount (AUD)'], true);
  for (const item of items) row(doc, item);
  doc.moveDown(0.5);
  for (const [label, value] of summary) row(doc, ['', '', label, value], label.startsWith('Grant'));
  notes(doc, footer);
  doc.end();
  return bytes;
}
