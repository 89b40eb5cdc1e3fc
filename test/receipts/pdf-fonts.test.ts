import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiptPdf } from '../../src/services/receipts/pdf.js';
import { receiptFacts } from './receipt-facts.js';

/**
 * scripts/patch-pdfkit.js (npm's postinstall) makes PDFKit build a standard font's metrics once per process instead
 * of once per document. These tests say the install step ran, and that a document made with metrics another
 * document built and used first has the same bytes as one made with metrics built for it.
 */
const facts = (donorName: string, amountCents: number) => receiptFacts({ donorName, amountCents });

describe('receipt PDFs with the standard fonts shared between documents (scripts/patch-pdfkit.js)', () => {
  it('is installed with the shared metrics in the ES module build the service loads', () => {
    const commonJsEntry = createRequire(import.meta.url).resolve('pdfkit');
    const moduleBuild = readFileSync(join(dirname(commonJsEntry), 'pdfkit.node.mjs'), 'utf8');
    expect(moduleBuild).toContain('this.font = AFM_FONTS.get(fontData);');
    expect(moduleBuild).not.toContain('this.font = new AFMFont(fontData);');
  });

  it('makes the same bytes for the same facts before and after other documents used the fonts', async () => {
    // The first document of this file builds the metrics (no other test here made a PDF before it).
    const first = await receiptPdf(facts('Avery Wattleton-Kerning', 123_456));
    const other = await receiptPdf(facts('Zoë Quill', 5));
    const again = await receiptPdf(facts('Avery Wattleton-Kerning', 123_456));
    expect(again.equals(first)).toBe(true);
    expect(other.equals(first)).toBe(false);
    expect(first.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
