import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { mailPolicy } from '../../src/config/mail.js';
import { MailDeliveryWorker } from '../../src/services/mail/worker.js';
import { receiptMailContent } from '../../src/services/receipts/content.js';
import type { TestApp } from '../helpers/test-app.js';
import { PRODUCTION_ENV } from '../webhooks/support.js';

/** What production needs to issue real receipts (docs/receipts.md), beside the webhook tests' production settings. */
export const LIVE_ENV = {
  ...PRODUCTION_ENV,
  FOUNDATION_LEGAL_NAME: 'Australian Sports Foundation Limited',
  FOUNDATION_ABN: '53 004 085 616',
  FOUNDATION_DGR_STATEMENT: 'The foundation is endorsed by the ATO as a deductible gift recipient (item 1).',
  MAIL_FROM: 'Foundation receipts <receipts@foundation.test>',
};

export interface Arrived {
  envelopeTo: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it accepts, parsed with mailparser.
 * `rejectWith(code)` answers every recipient with that reply code instead (with an address, that recipient only);
 * `holdData` holds a message's data before
 * the server answers (the kill test kills the sender there). `peak` tells the most connections open at once and the
 * most messages whose data was being received at once.
 */
export async function startSmtpServer() {
  const arrived: Arrived[] = [];
  let rejectCode: number | null = null;
  let rejectAddress: string | undefined;
  let hold: ((done: () => void) => void) | null = null;
  const open = { connections: 0, receiving: 0 };
  const peak = { connections: 0, receiving: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      open.connections += 1;
      peak.connections = Math.max(peak.connections, open.connections);
      callback();
    },
    onClose() {
      open.connections -= 1;
    },
    onRcptTo(address, _session, callback) {
      if (rejectCode === null || (rejectAddress !== undefined && address.address !== rejectAddress)) return callback();
      const err = Object.assign(new Error('mailbox refused'), { responseCode: rejectCode });
      return callback(err);
    },
    onData(stream, session, callback) {
      open.receiving += 1;
      peak.receiving = Math.max(peak.receiving, open.receiving);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const accept = () => {
          void simpleParser(Buffer.concat(chunks)).then((mail) => {
            arrived.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
            open.receiving -= 1;
            callback();
          });
        };
        if (hold) hold(accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrived,
    peak,
    rejectWith(code: number | null, address?: string) {
      rejectCode = code;
      rejectAddress = address;
    },
    holdData(fn: ((done: () => void) => void) | null) {
      hold = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** The text of every page of a PDF, with pdf.js (Mozilla's maintained parser), lines joined by newlines. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  const standardFontDataUrl = new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url).pathname;
  const document = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n');
}

/** The app's mail worker (the one createContext builds reads SMTP_URL the same way); `run()` drains due messages. */
export function mailWorker(t: TestApp) {
  const worker = new MailDeliveryWorker(t.jobQueue, t.database, mailPolicy(t.config), receiptMailContent);
  return { worker, run: () => worker.runPending({ now: true }) };
}

export const uniqueEmail = (name = 'donor') => `${name}.${randomBytes(4).toString('hex')}@example.com`;
