import { bankMatchingSettings } from '../../src/config/index.js';
import type { OperatorContext } from '../../src/services/operators/context.js';
import type { TestApp } from '../helpers/test-app.js';
import { donate, postBatch } from '../reconciliation/support.js';

/** A camt.053 entry as a test describes it; the document is written following the ISO 20022 schema. */
export interface CamtEntry {
  amount: string;
  currency?: string;
  credit?: boolean;
  booked: string;
  value?: string;
  /** AcctSvcrRef: the bank's reference of the entry. */
  bankRef?: string;
  endToEndId?: string;
  ustrd?: string[];
  status?: string;
  payer?: string;
}

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A bank-to-customer statement (camt.053.001.02): Document/BkToCstmrStmt with a group header and one Stmt of the
 * account, its entries (Ntry) with amount and currency, credit or debit, status, booking and value dates, the
 * bank's reference and the transaction details (end-to-end id, payer, unstructured remittance information).
 */
export function camt053(entries: CamtEntry[], options: { statementId?: string; iban?: string } = {}): string {
  const ntry = entries.map((e) => {
    const details = [
      e.endToEndId ? `<Refs><EndToEndId>${xmlText(e.endToEndId)}</EndToEndId></Refs>` : '',
      e.payer ? `<RltdPties><Dbtr><Nm>${xmlText(e.payer)}</Nm></Dbtr></RltdPties>` : '',
      e.ustrd ? `<RmtInf>${e.ustrd.map((u) => `<Ustrd>${xmlText(u)}</Ustrd>`).join('')}</RmtInf>` : '',
    ].join('');
    return `
      <Ntry>
        <Amt Ccy="${e.currency ?? 'AUD'}">${e.amount}</Amt>
        <CdtDbtInd>${e.credit === false ? 'DBIT' : 'CRDT'}</CdtDbtInd>
        <Sts>${e.status ?? 'BOOK'}</Sts>
        <BookgDt><Dt>${e.booked}</Dt></BookgDt>
        <ValDt><Dt>${e.value ?? e.booked}</Dt></ValDt>
        ${e.bankRef ? `<AcctSvcrRef>${e.bankRef}</AcctSvcrRef>` : ''}
        <BkTxCd><Prtry><Cd>DIRECT CREDIT</Cd></Prtry></BkTxCd>
        <NtryDtls><TxDtls>${details}</TxDtls></NtryDtls>
      </Ntry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>MSG-${options.statementId ?? 'STMT-1'}</MsgId><CreDtTm>2026-11-30T18:00:00+10:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${options.statementId ?? 'STMT-1'}</Id>
      <CreDtTm>2026-11-30T18:00:00+10:00</CreDtTm>
      <Acct><Id><IBAN>${options.iban ?? 'AU00FOUNDATION000001'}</IBAN></Id><Ccy>AUD</Ccy></Acct>${ntry.join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

export const operatorOf = (t: TestApp, operator = 'finance@example.org'): OperatorContext => ({
  db: t.db,
  operator,
  now: t.clock.now,
});

export const settingsOf = (t: TestApp) => bankMatchingSettings(t.config);

/** Today in the foundation's time zone as YYYY-MM-DD, shifted by `days`: batches are received "now". */
export function dayOf(t: TestApp, days = 0): string {
  const date = new Date(t.clock.now().getTime() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: t.config.FOUNDATION_TIME_ZONE }).format(date);
}

/**
 * A reconciled batch whose entries are all `matched` (money expected): one fresh donation per amount, each entry
 * paying one of them under the given bank reference.
 */
export async function expectedBatch(t: TestApp, entries: { ref: string; amount: string }[]) {
  const remittances = [];
  for (const entry of entries)
    remittances.push({
      bankReferenceId: entry.ref,
      amount: Number(entry.amount),
      donationIds: [await donate(t, entry.amount)],
    });
  const batchId = await postBatch(t, remittances);
  await t.reconcile();
  return batchId;
}

let counter = 0;
/** A reference no other test of the file uses (each test file has its own database). */
export const unique = (prefix: string) => `${prefix}${String((counter += 1)).padStart(5, '0')}X`;

/** The partner's view of a batch: whether each entry's money was received. */
export async function fundsReceived(t: TestApp, batchId: string): Promise<boolean[]> {
  const report = (await t.get(`/remittances/${batchId}`)).json().data.items;
  return report.entries.map((e: { fundsReceived: boolean }) => e.fundsReceived);
}

/** The `remittance.funds_received` events of a batch, oldest first, as the partner reads them. */
export async function fundsEvents(t: TestApp, batchId: string) {
  const events = (await t.get('/events', { query: { limit: '100' } })).json().data.items.events as {
    type: string;
    data: { batchId: string; entries: { index: number; fundsReceived: boolean; fundsReceivedAt: string | null }[] };
  }[];
  return events.filter((e) => e.type === 'remittance.funds_received' && e.data.batchId === batchId);
}

/**
 * What an import leaves behind: statements, lines, bank.import audit entries, and the open suggestions' ids (every
 * matching run deletes and writes them again, so a run changes them).
 */
export async function importTraces(t: TestApp) {
  const count = async (table: 'bank_statements' | 'bank_lines') =>
    Number((await t.db.selectFrom(table).select(t.db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const audits = await t.db
    .selectFrom('audit_log')
    .select(t.db.fn.countAll<string>().as('n'))
    .where('action', '=', 'bank.import')
    .executeTakeFirstOrThrow();
  const suggestions = await t.db
    .selectFrom('bank_suggestions')
    .select('id')
    .where('status', '=', 'open')
    .orderBy('id')
    .execute();
  return {
    statements: await count('bank_statements'),
    lines: await count('bank_lines'),
    audits: Number(audits.n),
    openSuggestions: suggestions.map((s) => String(s.id)),
  };
}
