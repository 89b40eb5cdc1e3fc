import type PDFDocument from 'pdfkit';
import { formatCents } from '../../domain/money.js';
import { formatAbn, longDate, NO_BENEFIT, receiptLines, SAMPLE_MARK, type ReceiptFacts } from '../../domain/receipt.js';
import type { StatementFacts } from './statement-facts.js';

/**
 * The PDF of a receipt or a statement, made with PDFKit (a maintained library) from facts alone: its creation date
 * is the document's own date, so the same facts give the same bytes every time. Text is set in Helvetica, a
 * standard PDF font whose encoding (Windows-1252) covers Latin scripts; a character outside it is printed as "?"
 * rather than as a wrong glyph (the e-mail that carries the PDF names the donor exactly).
 */
export const winAnsi = (text: string) =>
  text.replace(/[^\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac]/gu, '?');

/** PDFKit is loaded when the first PDF is made, not at start-up (docs/decisions/0049-a-faster-service-start.md). */
let loadingPdfKit: Promise<{ default: typeof PDFDocument }> | undefined;

export async function documentOf(
  title: string,
  date: string,
): Promise<{ doc: PDFKit.PDFDocument; bytes: Promise<Buffer> }> {
  const { default: Document } = await (loadingPdfKit ??= import('pdfkit'));
  const doc = new Document({
    size: 'A4',
    margin: 56,
    info: { Title: winAnsi(title), Author: 'Fundraiser partner API', CreationDate: new Date(`${date}T00:00:00Z`) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

export function header(
  doc: PDFKit.PDFDocument,
  facts: { sample: boolean; issuer: Pick<ReceiptFacts['issuer'], 'legalName' | 'abn'> },
  title: string,
  sampleMark = SAMPLE_MARK,
) {
  if (facts.sample) doc.font('Helvetica-Bold').fontSize(16).fillColor('#b00020').text(sampleMark).moveDown(0.5);
  doc.fillColor('#000000').font('Helvetica-Bold').fontSize(18).text(winAnsi(facts.issuer.legalName));
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`ABN ${formatAbn(facts.issuer.abn)}`)
    .moveDown(1);
  doc.font('Helvetica-Bold').fontSize(14).text(winAnsi(title)).moveDown(0.5);
}

export function notes(doc: PDFKit.PDFDocument, lines: string[]) {
  doc.moveDown(1).font('Helvetica').fontSize(10);
  for (const line of lines) doc.text(winAnsi(line)).moveDown(0.4);
}

export async function receiptPdf(facts: ReceiptFacts): Promise<Buffer> {
  const { title, lines, notes: footer } = receiptLines(facts);
  const { doc, bytes } = await documentOf(title, facts.issuedOn);
  header(doc, facts, title);
  for (const [label, value] of lines) {
    doc.font('Helvetica-Bold').fontSize(11).text(`${label}: `, { continued: true });
    doc.font('Helvetica').text(winAnsi(value));
  }
  notes(doc, footer);
  doc.end();
  return bytes;
}

export async function statementPdf(facts: StatementFacts): Promise<Buffer> {
  const title = `Statement of gifts, financial year ${facts.financialYear}`;
  const { doc, bytes } = await documentOf(title, facts.issuedOn);
  header(doc, facts, title);
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(winAnsi(`Received from: ${facts.donorName}`));
  doc.text(`Issued: ${longDate(facts.issuedOn)}`).moveDown(0.8);
  for (const item of facts.items)
    doc.text(
      winAnsi(
        `${item.number}   ${longDate(item.giftDate)}   $${formatCents(item.amountCents)} AUD   ${item.fundraiser}`,
      ),
    );
  doc
    .moveDown(0.5)
    .font('Helvetica-Bold')
    .text(`Total of gifts: $${formatCents(facts.totalCents)} AUD`);
  notes(doc, [
    ...(facts.sample ? [`${SAMPLE_MARK}: issued outside production, for testing only.`] : []),
    'Each gift listed was receipted by the receipt named beside it; this statement sums them up.',
    facts.issuer.dgrStatement,
    NO_BENEFIT,
  ]);
  doc.end();
  return bytes;
}
