import { html } from 'ghtml';
import { loadDashboard, type Dashboard } from '../../services/console/dashboard.js';
import type { BatchEntryRow } from '../../infrastructure/repositories/batch-entries.js';
import type { BatchSummary } from '../../services/reconciliation/operations.js';
import type { PartnerSummary } from '../../services/operators/partners.js';
import type { RejectionCount } from '../../infrastructure/repositories/console-dashboard.js';
import { operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { stackedBarChart } from '../views/chart.js';
import { dataTable, detailList, link } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

/**
 * GET /console: donations per day, partners, batches being reconciled, recent exceptions, reversals and what is owed
 * back, failed mail, refused API calls.
 */
export const dashboardPage: ConsolePage = (app, deps) => {
  app.get('/', async (request, reply) => {
    const dashboard = await loadDashboard(operatorContext(request, deps), {
      schedule: deps.config.GRANT_SCHEDULE,
      timeZone: deps.config.FOUNDATION_TIME_ZONE,
    });
    const body = html`<div class="grid">
      <section class="card wide" aria-labelledby="chart-h">
        <h2 id="chart-h">Donations per day</h2>
        !${donationsChart(dashboard)}
      </section>
      <section class="card" aria-labelledby="grants-h">
        <h2 id="grants-h">Grants to clubs</h2>
        !${grantsFacts(dashboard)}
      </section>
      <section class="card" aria-labelledby="partners-h">
        <h2 id="partners-h">Partners</h2>
        !${partnersTable(dashboard.partners)}
      </section>
      <section class="card" aria-labelledby="batches-h">
        <h2 id="batches-h">Batches in progress</h2>
        !${batchesTable(dashboard.batchesInProgress)}
      </section>
      <section class="card" aria-labelledby="exceptions-h">
        <h2 id="exceptions-h">Reconciliation exceptions (last 30 days)</h2>
        !${exceptionsTable(dashboard.recentExceptions)}
      </section>
      <section class="card" aria-labelledby="reversals-h">
        <h2 id="reversals-h">Reversals</h2>
        !${reversalsFacts(dashboard)}
      </section>
      <section class="card" aria-labelledby="mail-h">
        <h2 id="mail-h">Mail</h2>
        !${mailFacts(dashboard)}
      </section>
      <section class="card" aria-labelledby="rejections-h">
        <h2 id="rejections-h">Refused API calls (last 7 days)</h2>
        !${rejectionsTable(dashboard.rejections)}
      </section>
    </div>`;
    return sendPage(reply, 200, { title: 'Dashboard', section: 'dashboard', session: sessionOf(request) }, body);
  });
};

function donationsChart({ days, donations }: Dashboard): string {
  const names = [...new Set(donations.map((d) => `${d.partnerName} · ${d.channel}`))].sort();
  const series = names.map((name) => ({
    name,
    values: days.map((day) =>
      donations
        .filter((d) => d.day === day && `${d.partnerName} · ${d.channel}` === name)
        .reduce((n, d) => n + d.count, 0),
    ),
  }));
  const chart = stackedBarChart({
    title: `Donations received per UTC day, by partner and channel (${days[0]} to ${days[days.length - 1]})`,
    categories: days,
    series,
  });
  const table = dataTable(
    donations,
    [
      { header: 'Day', text: (d) => d.day },
      { header: 'Partner', text: (d) => d.partnerName },
      { header: 'Channel', text: (d) => d.channel },
      { header: 'Donations', text: (d) => d.count, numeric: true },
      { header: 'AUD', text: (d) => aud(d.totalCents), numeric: true },
    ],
    { caption: 'Donations per day', empty: 'No donations in this period.' },
  );
  return html`!${chart}
    <details>
      <summary>The numbers</summary>
      !${table}
    </details>`;
}

/** What clubs are owed, what the latest round held, and when the next round is drafted. */
const grantsFacts = ({ grants: g }: Dashboard) =>
  html`!${detailList([
      [
        'Owed to clubs',
        g.round === null
          ? 'no round drafted yet'
          : `AUD ${aud(g.owedCents)} at round ${g.round}'s cut-off (not paid yet, held, returned)`,
      ],
      ['Held by the latest round', `${g.heldCount} club(s), AUD ${aud(g.heldCents)}`],
      ['Next round', g.nextRound],
    ])}
    <p>!${link('/console/grants/rounds', 'Grant rounds')} · !${link('/console/grants/acquittals', 'Acquittals')}</p>`;

/** Reversals made in the period of the chart, and what is owed back now, linked to finance's list. */
const reversalsFacts = ({ days, reversals: r }: Dashboard) =>
  html`!${detailList([
      [`Reversals since ${days[0]}`, r.count],
      [`Reversed since ${days[0]} (AUD)`, aud(r.totalCents)],
      ['Owed back, not repaid', `${r.owedCount} reversal(s), AUD ${aud(r.owedCents)}`],
    ])}
    <p>!${link('/console/reversals/owed', 'Owed back, oldest first')}</p>`;

/** Messages that failed for good: no donor or contact got them until an operator acts (the Mail page says why). */
const mailFacts = ({ failedMail }: Dashboard) =>
  html`!${detailList([['Failed messages', failedMail]])}
    <p>
      !${link('/console/mail?status=failed', failedMail > 0 ? 'See the failed messages and why' : 'The mail outbox')}
    </p>`;

const partnersTable = (rows: PartnerSummary[]) =>
  dataTable(
    rows,
    [
      { header: 'Partner', cell: (p) => link(`/console/partners/${encodeURIComponent(p.id)}`, p.name) },
      { header: 'Status', text: (p) => p.status },
      { header: 'Channels', text: (p) => p.channels },
    ],
    { caption: 'Partners', empty: 'No partners yet.' },
  );

const batchesTable = (rows: BatchSummary[]) =>
  dataTable(
    rows,
    [
      { header: 'Batch', cell: (b) => link(`/console/remittances/${b.batchId}`, b.batchId.slice(0, 8)) },
      { header: 'Partner', text: (b) => b.partnerName },
      { header: 'Status', text: (b) => b.status },
      { header: 'Entries', text: (b) => b.entries, numeric: true },
      { header: 'Received', text: (b) => b.receivedAt },
    ],
    { caption: 'Batches not yet reconciled', empty: 'None: every batch is reconciled.' },
  );

const exceptionsTable = (rows: BatchEntryRow[]) =>
  dataTable(
    rows,
    [
      { header: 'Batch', cell: (e) => link(`/console/remittances/${e.batch_id}?exceptions=1`, e.batch_id.slice(0, 8)) },
      { header: 'Partner', text: (e) => e.partner_name },
      { header: 'Bank reference', text: (e) => e.bank_reference_id },
      { header: 'Outcome', text: (e) => e.outcome },
    ],
    { caption: 'Latest exceptions', empty: 'No exceptions.' },
  );

const rejectionsTable = (rows: RejectionCount[]) =>
  dataTable(
    rows,
    [
      { header: 'Day', text: (r) => r.day },
      { header: 'Refusal', text: (r) => (r.kind === 'quota' ? 'quota exhausted (429)' : 'bad credentials (401)') },
      { header: 'Partner', text: (r) => r.partnerName ?? '(unidentified)' },
      { header: 'Calls', text: (r) => r.count, numeric: true },
    ],
    { caption: 'Refused calls', empty: 'No refused calls.' },
  );
