import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/index.js';

/** Signatures made independently with node:crypto, the way the Standard Webhooks specification defines them. */
const rawKey = randomBytes(32);
const secret = `whsec_${rawKey.toString('base64')}`;
const body = JSON.stringify({ type: 'mandate.succeeded', data: { mandateId: 'seti_1' } });
const at = new Date('2026-11-21T10:00:00Z');
const timestamp = String(at.getTime() / 1000);
const signature = (key: Buffer, content = body) =>
  `v1,${createHmac('sha256', key).update(`msg_1.${timestamp}.${content}`).digest('base64')}`;
const headers = (sig: string) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': sig });
const now = () => new Date(at.getTime() + 60_000);

describe('verifyWebhook', () => {
  it('accepts a valid signature, also among several (a secret rotation), and returns the event', async () => {
    await expect(verifyWebhook(secret, headers(signature(rawKey)), body, { now })).resolves.toEqual(JSON.parse(body));
    const both = `${signature(randomBytes(32))} ${signature(rawKey)}`;
    await expect(verifyWebhook(secret, new Headers(headers(both)), body, { now })).resolves.toMatchObject({
      type: 'mandate.succeeded',
    });
  });

  it('refuses a tampered body, another secret, a stale timestamp and missing headers', async () => {
    const refused = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(WebhookVerificationError);
    await refused(verifyWebhook(secret, headers(signature(rawKey)), body.replace('seti_1', 'seti_2'), { now }));
    await refused(verifyWebhook(secret, headers(signature(randomBytes(32))), body, { now }));
    await refused(
      verifyWebhook(secret, headers(signature(rawKey)), body, { now: () => new Date(at.getTime() + 600_000) }),
    );
    await refused(verifyWebhook(secret, {}, body, { now }));
  });
});
