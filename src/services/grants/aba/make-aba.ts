import { createHash } from 'node:crypto';
import ABA from 'aba-generator';
import type { AbaPayer } from '../../../config/index.js';

/**
 * The bank's bulk-credit file for a round (docs/grants.md, "The ABA file"): the direct entry (BECS) format Australian
 * banks take. aba-generator lays out the fixed-width records; its money fields read dollars as floating point, so
 * every amount field here is laid out as an integer of cents instead (its own schemas with `integer` fields) and the
 * file total record's totals are given, summed in bigint
 * (docs/decisions/0065-grant-lodgement-references-and-the-balancing-record.md).
 */

export interface AbaPayment {
  bsb: string;
  accountNumber: string;
  accountName: string;
  lodgementReference: string;
  amountCents: bigint;
}

export interface AbaRound {
  number: number;
  /** The date the bank is to process the file, `YYYY-MM-DD` in the foundation's time zone. */
  processOn: string;
  payments: readonly AbaPayment[];
}

/** The transaction codes of the format: a credit paying an account, and a debit. */
const PAY = 53;
const DEBIT = 13;

/** A 10-digit amount field holds at most this many cents ($99,999,999.99). */
const MAX_FIELD_CENTS = 9_999_999_999n;

const detailSchema = {
  recordType: 'transaction' as const,
  fields: [
    { name: 'transactionType', boundaries: [0, 1], type: 'string' },
    { name: 'bsb', boundaries: [1, 8], type: 'bsb' },
    { name: 'account', boundaries: [8, 17], type: 'string' },
    { name: 'tax', boundaries: [17, 18], type: 'string' },
    { name: 'transactionCode', boundaries: [18, 20], type: 'integer' },
    { name: 'amount', boundaries: [20, 30], type: 'integer' },
    { name: 'accountTitle', boundaries: [30, 62], type: 'string', padding: 'left' },
    { name: 'reference', boundaries: [62, 80], type: 'string', padding: 'left' },
    { name: 'traceBsb', boundaries: [80, 87], type: 'bsb' },
    { name: 'traceAccount', boundaries: [87, 96], type: 'string' },
    { name: 'remitter', boundaries: [96, 112], type: 'string', padding: 'left' },
    { name: 'taxAmount', boundaries: [112, 120], type: 'integer' },
  ],
};

const totalSchema = {
  recordType: 'footer' as const,
  fields: [
    { name: 'type', boundaries: [0, 1], type: 'string' },
    { name: 'bsb', boundaries: [1, 8], type: 'bsb' },
    { name: 'netTotal', boundaries: [20, 30], type: 'integer' },
    { name: 'creditTotal', boundaries: [30, 40], type: 'integer' },
    { name: 'debitTotal', boundaries: [40, 50], type: 'integer' },
    { name: 'numberOfTransactions', boundaries: [74, 80], type: 'integer' },
    { name: 'filler', boundaries: [80, 120], type: 'string' },
  ],
};

/**
 * The BECS character set: letters, digits, space and a few signs. Accents are taken off (é → e) and anything else
 * becomes a space, so a club's name never makes the bank refuse the file.
 */
function becsText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 &'()*+,\-./:;<=>?[\]_{}]/g, ' ')
    .trim();
}

const ddmmyy = (date: string) => `${date.slice(8, 10)}${date.slice(5, 7)}${date.slice(2, 4)}`;

/**
 * The file: a descriptive record, one credit (transaction code 53, pay) per grant, one debit (13) of the total to
 * the foundation's own account so that the file balances, and the file total record; 120 characters a line, CRLF
 * after each. Its bytes and their SHA-256.
 */
export function makeAbaFile(round: AbaRound, payer: AbaPayer): { bytes: Buffer; sha256: string } {
  if (round.payments.length === 0) throw new Error(`round ${round.number} has no payment to make`);
  const total = round.payments.reduce((sum, p) => sum + p.amountCents, 0n);
  for (const cents of [total, ...round.payments.map((p) => p.amountCents)])
    if (cents <= 0n || cents > MAX_FIELD_CENTS) throw new Error(`an amount of ${cents} cents does not fit the file`);
  const trace = { traceBsb: payer.bsb, traceAccount: payer.account, remitter: becsText(payer.remitter) };
  const credits = round.payments.map((p) => ({
    bsb: p.bsb,
    account: p.accountNumber,
    transactionCode: PAY,
    amount: Number(p.amountCents),
    accountTitle: becsText(p.accountName),
    reference: p.lodgementReference,
    ...trace,
  }));
  const balancing = {
    bsb: payer.bsb,
    account: payer.account,
    transactionCode: DEBIT,
    amount: Number(total),
    accountTitle: becsText(payer.userName),
    reference: `FG${round.number} GRANTS`,
    ...trace,
  };
  const aba = new ABA({
    header: {
      bank: payer.bank,
      user: becsText(payer.userName),
      userNumber: Number(payer.apcaUserId),
      description: `GRANTS R${round.number}`.slice(0, 12),
      date: ddmmyy(round.processOn),
    },
    footer: {
      netTotal: '0',
      creditTotal: String(total),
      debitTotal: String(total),
      numberOfTransactions: String(credits.length + 1),
    },
    schemas: { 1: detailSchema, 7: totalSchema },
  });
  const text = `${aba.generate([...credits, balancing])}\r\n`;
  const bytes = Buffer.from(text, 'ascii');
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}
