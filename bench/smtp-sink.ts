import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server (smtp-server) that accepts every message and counts those carrying a PDF. It does not parse
 * them (test/receipts/support.ts does, with mailparser): the bench shares two cores with the service it measures,
 * and its own CPU should go to generating load, not to reading mail.
 */
export async function startSmtpSink() {
  let accepted = 0;
  let withPdf = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A reverse DNS look-up of 127.0.0.1 per connection would time each message by the resolver, not the service.
    disableReverseLookup: true,
    // The service opens a connection per message in flight: let all of them in.
    maxClients: 1000,
    onData(stream, _session, callback) {
      let pdf = false;
      stream.on('data', (chunk: Buffer) => {
        if (!pdf && chunk.includes('application/pdf')) pdf = true;
      });
      stream.on('end', () => {
        accepted += 1;
        if (pdf) withPdf += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    counts: () => ({ accepted, withPdf }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;
