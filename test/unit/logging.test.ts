import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../../src/http/logging.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream), text: () => lines.join('') };
}

describe('logs never carry secrets or donor contact details', () => {
  it('redacts client_secret, Authorization, client secrets of mandates and donor contact fields', () => {
    const { log, text } = capture();
    log.info(
      {
        req: { headers: { client_id: 'sit_abc', client_secret: 'TOPSECRET1', authorization: 'Basic c2VjcmV0' } },
        body: {
          donor: {
            email: 'jo@example.com',
            mobile: '+61412345678',
            verifiedEmail: 'v@example.com',
            billingAddress: { street: '1 Main St' },
          },
        },
        donor: { email: 'direct@example.com' },
        items: { clientSecret: 'seti_1_secret_2' },
      },
      'request',
    );
    const output = text();
    for (const secret of [
      'TOPSECRET1',
      'c2VjcmV0',
      'jo@example.com',
      '+61412345678',
      'v@example.com',
      '1 Main St',
      'direct@example.com',
      'seti_1_secret_2',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('sit_abc');
    expect(output).toContain('[redacted]');
  });
});
