import { Type, type Static } from '@sinclair/typebox';
import { RequiredText, StringEnum } from './common.js';

/** GET /sandbox/receipts: which donation's receipts to read. */
export const SandboxReceiptsQuery = Type.Object(
  {
    donationReferenceId: RequiredText(64, {
      description: 'The donationReferenceId POST /donations answered with.',
      examples: ['DON-7Q2K9X4M1B'],
    }),
  },
  { additionalProperties: false },
);
export type SandboxReceiptsQuery = Static<typeof SandboxReceiptsQuery>;

const SandboxReceipt = Type.Object({
  number: Type.String({ description: 'Sample numbers start with SAMPLE-.', examples: ['SAMPLE-2026-27-000001'] }),
  status: StringEnum(['in force', 'void']),
  amount: Type.String({ description: 'AUD receipted: the net amount after reversals.', examples: ['20.50'] }),
  giftDate: Type.String({ format: 'date', description: 'The gift’s date in the foundation’s time zone.' }),
  issuedAt: Type.String({ format: 'date-time' }),
  issueReason: Type.String({ examples: ['settled', 'partial reversal'] }),
  replaces: Type.Union([Type.String(), Type.Null()], { description: 'The number of the receipt this one replaces.' }),
  voidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const SandboxMessage = Type.Object({
  kind: StringEnum(['receipt', 'receipt-void'], { description: 'A receipt, or the notice that one is void.' }),
  status: StringEnum(['pending', 'held', 'sent', 'failed'], {
    description: 'Outside production a message is never sent to the donor: held, or sent to the foundation’s QA inbox.',
  }),
  to: Type.String({ description: 'The donor the message is written to.' }),
  subject: Type.String(),
  text: Type.String(),
  html: Type.Union([Type.String(), Type.Null()]),
  attachments: Type.Array(
    Type.Object({
      filename: Type.String({ examples: ['receipt-SAMPLE-2026-27-000001.pdf'] }),
      contentType: Type.String({ examples: ['application/pdf'] }),
      contentBase64: Type.String({ contentEncoding: 'base64', description: 'The PDF, base64.' }),
    }),
  ),
});

export const SandboxReceipts = Type.Object({
  donationReferenceId: Type.String(),
  receipts: Type.Array(SandboxReceipt, { description: 'Every receipt of the donation, oldest first.' }),
  messages: Type.Array(SandboxMessage, { description: 'What the donor would be sent, oldest first.' }),
});
export type SandboxReceipts = Static<typeof SandboxReceipts>;
