import { afterAll, describe, expect, it } from 'vitest';
import { receiptPdf as inThisThread } from '../../src/services/receipts/pdf.js';
import { closePdfThread, receiptPdf as inTheThread } from '../../src/services/receipts/pdf-thread.js';
import { receiptFacts } from './receipt-facts.js';

/**
 * The service renders receipts in a worker thread (docs/decisions/0055-pdfs-rendered-off-the-event-loop.md): the
 * facts cross to it by structured clone and the bytes come back. A donor must get the document the main thread
 * would have made, byte for byte.
 */
const facts = (number: string, donorName: string, amountCents: number) =>
  receiptFacts({
    number,
    donorName,
    amountCents,
    donorBusinessName: 'Wattleton Plumbing Pty Ltd',
    replacesNumber: 'R-2026-000041',
  });

afterAll(closePdfThread);

describe('receipt PDFs rendered in the worker thread', () => {
  it('are the bytes the main thread renders for the same facts, each for its own facts', async () => {
    const all = [facts('R-2026-000042', 'Avery Wattleton', 123_456), facts('R-2026-000043', 'Zoë Quill', 5)];
    const threaded = await Promise.all(all.map(inTheThread));
    for (const [i, pdf] of threaded.entries()) {
      expect(Buffer.isBuffer(pdf)).toBe(true);
      expect(pdf.equals(await inThisThread(all[i]!))).toBe(true);
    }
    expect(threaded[0]!.equals(threaded[1]!)).toBe(false);
  });

  it('starts again after it was closed', async () => {
    await closePdfThread();
    const pdf = await inTheThread(facts('R-2026-000044', 'Avery Wattleton', 100));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
