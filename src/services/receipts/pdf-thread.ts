import type { Piscina } from 'piscina';
import type { AdviceFacts } from '../../domain/grant-advice.js';
import type { ReceiptFacts } from '../../domain/receipt.js';
import type { PdfTask } from './pdf-worker.js';
import type { StatementFacts } from './statement-facts.js';

/**
 * Receipts and statements are rendered in a worker thread (Piscina), not in the thread that answers requests:
 * PDFKit lays a document out without waiting on any I/O (~1 ms a receipt, 2–5 ms on a slow host), and at a season's rate of receipts
 * those stretches were most of what requests waited behind (docs/decisions/0055-pdfs-rendered-off-the-event-loop.md).
 * One thread, started at the first PDF and ended after a minute without one, so a service that makes none pays
 * nothing for it.
 */
const THREADS = 1;
const IDLE_MS = 60_000;
/**
 * A PDF's garbage is small and short-lived: a young generation of 4 MB instead of V8's default costs nothing in
 * speed, and in a bare process rendering 5,000 receipts kept the thread to ~18 MB of RSS instead of ~45 (in the
 * service the difference was within its noise: decision 0055).
 */
const YOUNG_GENERATION_MB = 4;
/**
 * The thread's old generation: what it keeps between documents is PDFKit's font metrics and the module code, a few
 * MB; bounded, V8 collects it as it nears the bound instead of letting it grow with the garbage of thousands of
 * receipts (docs/decisions/0078-memory-bounds-of-the-service.md). A document that needed more would fail its job,
 * which is retried, rather than the service.
 */
const OLD_GENERATION_MB = 32;

/** Run from the sources (tests, `npm run dev`), the thread loads the worker's TypeScript through tsx as well. */
const fromSources = import.meta.url.endsWith('.ts');

let starting: Promise<Piscina> | undefined;

function pool(): Promise<Piscina> {
  return (starting ??= import('piscina').then(
    ({ Piscina: Pool }) =>
      new Pool({
        filename: new URL(`./pdf-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url).href,
        minThreads: 0,
        maxThreads: THREADS,
        idleTimeout: IDLE_MS,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: OLD_GENERATION_MB },
        execArgv: fromSources ? ['--import', 'tsx'] : [],
      }),
  ));
}

async function render(task: PdfTask): Promise<Buffer> {
  const bytes = (await (await pool()).run(task)) as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Ends the thread, if one was started, once the jobs that render have stopped. */
export async function closePdfThread(): Promise<void> {
  const started = starting;
  starting = undefined;
  if (started) await (await started).close();
}

export const receiptPdf = (facts: ReceiptFacts) => render({ kind: 'receipt', facts });
export const statementPdf = (facts: StatementFacts) => render({ kind: 'statement', facts });
export const grantAdvicePdf = (facts: AdviceFacts) => render({ kind: 'grant-advice', facts });
