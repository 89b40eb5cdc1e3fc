/** The index of an access request's archive: what each file holds, in words a person reads. */

type Rows = Record<string, unknown>[];

export interface AccessSections {
  donations: Rows;
  corrections: Rows;
  receipts: Rows;
  mandates: Rows;
  plans: Rows;
  debits: Rows;
  statements: Rows;
  mail: Rows;
  audit: Rows;
}

const WHAT: Record<keyof AccessSections, string> = {
  donations: 'Your donations as the partner that collected them sent them to us, with the details you gave.',
  corrections: 'Corrections of your details made at your request or by our staff.',
  receipts: 'Tax receipts issued for your gifts (the PDFs are in the receipts folder), void ones included.',
  mandates: 'Direct debit authorities you gave.',
  plans: 'Recurring donations on those authorities.',
  debits: 'Each debit of those recurring donations, with its outcome.',
  statements: 'End-of-year statements of your receipts.',
  mail: 'Messages we wrote to your address (bodies are kept 90 days).',
  audit: 'What our staff did with these records (viewing, resending, correcting a receipt…).',
};

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const aud = (cents: unknown) => (Number(cents) / 100).toFixed(2);

export function accessIndexHtml(sections: AccessSections, generatedAt: Date): string {
  const list = (Object.keys(WHAT) as (keyof AccessSections)[])
    .map((k) => `<li><b>${k}.json</b> (${sections[k].length}): ${escape(WHAT[k])}</li>`)
    .join('\n');
  const gifts = sections.donations
    .map(
      (d) =>
        `<tr><td>${escape(String(d.reference_id))}</td><td>${escape(new Date(String(d.created_at)).toISOString().slice(0, 10))}</td>` +
        `<td>${aud(d.amount_cents)}</td><td>${escape(String(d.fundraiser_account_name ?? d.fundraiser_id))}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>What we hold about you</title></head>
<body>
<h1>What we hold about you</h1>
<p>Prepared on ${escape(generatedAt.toISOString().slice(0, 10))} at your request (Australian Privacy Principle 12).
Each file below is a plain JSON file; receipts are PDFs.</p>
<ul>
${list}
</ul>
<h2>Your donations</h2>
<table><thead><tr><th>Reference</th><th>Received</th><th>AUD</th><th>Fundraiser</th></tr></thead>
<tbody>
${gifts}
</tbody></table>
<p>To correct these details or ask us to erase them, reply to the message this archive came with.</p>
</body></html>
`;
}
