/**
 * A reader of ABA (BECS direct entry) files written from the published format, independent of the code that writes
 * them: it checks what a bank checks (record types, 120 characters a line, CRLF, field positions, BSBs as NNN-NNN,
 * digits where numbers are, blanks where the format has none) and answers the fields.
 */

export interface Descriptive {
  reel: string;
  bank: string;
  userName: string;
  apcaUserId: string;
  description: string;
  processOn: string;
}

export interface Detail {
  bsb: string;
  account: string;
  indicator: string;
  transactionCode: string;
  amountCents: bigint;
  title: string;
  reference: string;
  traceBsb: string;
  traceAccount: string;
  remitter: string;
  withholdingCents: bigint;
}

export interface FileTotal {
  netCents: bigint;
  creditCents: bigint;
  debitCents: bigint;
  count: number;
}

const BSB = /^\d{3}-\d{3}$/;
const blank = (text: string) => /^ *$/.test(text);

function digits(field: string, what: string): bigint {
  if (!/^\d+$/.test(field)) throw new Error(`${what} is not digits: ${JSON.stringify(field)}`);
  return BigInt(field);
}

function must(ok: boolean, problem: string) {
  if (!ok) throw new Error(problem);
}

export function parseAba(bytes: Buffer): { descriptive: Descriptive; details: Detail[]; total: FileTotal } {
  const text = bytes.toString('latin1');
  must(text.endsWith('\r\n'), 'the last record does not end with CRLF');
  const lines = text.slice(0, -2).split('\r\n');
  lines.forEach((line, i) => {
    must(line.length === 120, `line ${i + 1} is ${line.length} characters, not 120`);
    must(!/[\r\n]/.test(line), `line ${i + 1} holds a stray CR or LF`);
    must(/^[\x20-\x7e]+$/.test(line), `line ${i + 1} holds a character outside printable ASCII`);
  });
  must(lines.length >= 3, 'a file has a descriptive record, details and a total');
  const [first, ...rest] = lines;
  const last = rest.pop()!;

  const d = first!;
  must(d[0] === '0', 'the first record is not a descriptive record (type 0)');
  must(blank(d.slice(1, 18)), 'descriptive positions 2–18 are not blank');
  must(blank(d.slice(23, 30)) && blank(d.slice(80, 120)), 'descriptive filler is not blank');
  const descriptive: Descriptive = {
    reel: d.slice(18, 20),
    bank: d.slice(20, 23),
    userName: d.slice(30, 56).trimEnd(),
    apcaUserId: String(digits(d.slice(56, 62), 'the APCA user id')).padStart(6, '0'),
    description: d.slice(62, 74).trimEnd(),
    processOn: d.slice(74, 80),
  };
  digits(descriptive.processOn, 'the processing date');

  const details = rest.map((l, i): Detail => {
    must(l[0] === '1', `record ${i + 2} is not a detail record (type 1)`);
    must(BSB.test(l.slice(1, 8)), `record ${i + 2}'s BSB is not NNN-NNN: ${l.slice(1, 8)}`);
    must(BSB.test(l.slice(80, 87)), `record ${i + 2}'s trace BSB is not NNN-NNN`);
    must(/^ *\d+$/.test(l.slice(8, 17)), `record ${i + 2}'s account is not right-justified digits`);
    must(/^ *\d+$/.test(l.slice(87, 96)), `record ${i + 2}'s trace account is not right-justified digits`);
    return {
      bsb: l.slice(1, 8),
      account: l.slice(8, 17).trim(),
      indicator: l[17]!,
      transactionCode: l.slice(18, 20),
      amountCents: digits(l.slice(20, 30), `record ${i + 2}'s amount`),
      title: l.slice(30, 62).trimEnd(),
      reference: l.slice(62, 80).trimEnd(),
      traceBsb: l.slice(80, 87),
      traceAccount: l.slice(87, 96).trim(),
      remitter: l.slice(96, 112).trimEnd(),
      withholdingCents: digits(l.slice(112, 120), `record ${i + 2}'s withholding tax`),
    };
  });

  must(last[0] === '7', 'the last record is not a file total record (type 7)');
  must(last.slice(1, 8) === '999-999', 'the file total record has no 999-999');
  must(blank(last.slice(8, 20)) && blank(last.slice(50, 74)) && blank(last.slice(80, 120)), 'total filler not blank');
  const total: FileTotal = {
    netCents: digits(last.slice(20, 30), 'the net total'),
    creditCents: digits(last.slice(30, 40), 'the credit total'),
    debitCents: digits(last.slice(40, 50), 'the debit total'),
    count: Number(digits(last.slice(74, 80), 'the record count')),
  };
  return { descriptive, details, total };
}
