import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSession } from '../../services/console/sessions.js';
import { html } from 'ghtml';
import { listAccounts, showAccount } from '../../services/operators/accounts.js';
import { ImportRejectedError, InvalidInputError } from '../../services/operators/operator-errors.js';
import { importAccounts, type ImportSummary } from '../../services/operators/reference-data/import-accounts.js';
import { bankDetailsSettings } from '../../services/grants/bank-details/settings.js';
import { field, operatorContext, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute } from '../views/change-route.js';
import { listPage } from '../views/list-page.js';
import { canChange, csrfField, dataTable, detailList, link, readOnlyNote } from '../views/components.js';
import { aud } from '../views/format.js';
import { sendPage } from '../views/layout.js';

/** Fundraisers: search, one account with its products per channel, and the import with a dry-run preview. */
export const accountsPages: ConsolePage = (app, deps) => {
  accountList.route(app, deps);

  app.get<{ Params: { id: string } }>('/accounts/:id', async (request, reply) => {
    const { account, products } = await showAccount(operatorContext(request, deps), request.params.id);
    const head = detailList([
      ['Member number', account.member_number],
      ['CRM id', account.crm_id],
      ['ABN', account.abn],
      ['Updated', account.updated_at],
    ]);
    const table = dataTable(
      products,
      [
        { header: 'Channel', text: (p) => p.channel },
        { header: 'Status', text: (p) => p.status },
        { header: 'Enrolment status', text: (p) => p.enrollment_status },
        { header: 'Enrolment id', text: (p) => p.product_enrollment_id },
        { header: 'Suggested amounts (AUD)', text: (p) => p.donation_amounts_cents.map((c) => aud(c)) },
      ],
      { caption: 'Products per channel', empty: 'No products.' },
    );
    const links = html`<p>
      <a href="/console/audit?subject=${encodeURIComponent(account.member_number)}">Audit trail</a> ·
      <a href="/console/accounts/${encodeURIComponent(account.member_number)}/bank">Bank details, contacts and GST</a>
    </p>`;
    return sendPage(
      reply,
      200,
      { title: account.name, section: 'accounts', session: sessionOf(request) },
      html`!${head}!${table}!${links}`,
    );
  });

  changeRoute(app, deps, '/accounts/import', {
    run: async (request) => {
      const upload = await uploadOf(request.body);
      const dryRun = field(request.body, 'mode') !== 'import';
      const summary = await importAccounts(operatorContext(request, deps), {
        ...upload,
        dryRun,
        bankSettings: bankDetailsSettings(deps.config),
      });
      return { upload, summary };
    },
    show: accountList.show,
    explain: (err) => (err instanceof ImportRejectedError ? problemsTable(err) : ''),
    done: ({ upload, summary }, request, reply) => previewPage(request, reply, summary, upload),
  });
};

/** GET /accounts: the search, and the import's form for admins. */
const accountList = listPage<AccountRow>({
  path: '/accounts',
  title: 'Fundraisers',
  section: 'accounts',
  search: true,
  submit: 'Search',
  filters: [{ name: 'q', label: 'Member number, CRM id or name', type: 'search' }],
  query: async ({ ops, asked }) => {
    const search = asked('q');
    return search ? listAccounts(ops, { search, limit: 100 }) : { rows: null };
  },
  columns: [
    { header: 'Member', cell: (a) => link(`/console/accounts/${encodeURIComponent(a.memberNumber)}`, a.memberNumber) },
    { header: 'CRM id', text: (a) => a.crmId },
    { header: 'Name', text: (a) => a.name },
    { header: 'Products', text: (a) => a.products.map((p) => `${p.channel}: ${p.status}`) },
  ],
  caption: ({ values }) => `Accounts matching “${values.q}”`,
  empty: 'No accounts match.',
  below: ({ session }) => (canChange(session) ? importForm(session) : readOnlyNote('fundraisers')),
});

type AccountRow = Awaited<ReturnType<typeof listAccounts>>[number];

/** The file of the upload form, or the content carried by the preview's "import these" form. */
async function uploadOf(body: unknown): Promise<{ fileName: string; content: string }> {
  const file = (body as Record<string, unknown> | undefined)?.file as
    { filename?: string; toBuffer?: () => Promise<Buffer> } | undefined;
  if (file?.filename && file.toBuffer)
    return { fileName: file.filename, content: (await file.toBuffer()).toString('utf8') };
  const content = field(body, 'content');
  if (!content) throw new InvalidInputError('Choose a .csv or .json file to import.');
  return { fileName: field(body, 'fileName') || 'upload.csv', content };
}

/** Every problem of a rejected file, by row: what the operator has to fix. */
function problemsTable(err: ImportRejectedError): string {
  return dataTable(
    err.problems,
    [
      { header: 'Where', text: (p) => p.row },
      { header: 'Member', text: (p) => p.memberNumber },
      { header: 'Field', text: (p) => p.field },
      { header: 'Problem', text: (p) => p.message },
    ],
    { caption: `Row errors in ${err.file}`, empty: '' },
  );
}

const importForm = (session: ConsoleSession) =>
  html`<form class="card" method="post" action="/console/accounts/import" enctype="multipart/form-data">
    <h2>Import accounts</h2>
    !${csrfField(session)}<input type="hidden" name="mode" value="preview" />
    <p>
      <label for="file">CSV or JSON file (the format of <code>fundraiser-admin accounts import</code>)</label
      ><input id="file" name="file" type="file" accept=".csv,.json" required />
    </p>
    <p><button type="submit">Preview the import</button></p>
    <p class="hint">Nothing is written until you confirm the preview. A file with any bad row is rejected whole.</p>
  </form>`;

function previewPage(
  request: FastifyRequest,
  reply: FastifyReply,
  summary: ImportSummary,
  upload: { fileName: string; content: string },
) {
  const session = sessionOf(request);
  const counts = detailList([
    ['File', summary.file],
    [summary.dryRun ? 'Would be created' : 'Created', summary.created],
    [summary.dryRun ? 'Would be updated' : 'Updated', summary.updated],
    ['Products', summary.products],
    [
      summary.dryRun ? 'Bank changes that would wait for verification' : 'Bank changes waiting for verification',
      summary.bankChanges,
    ],
  ]);
  const table = dataTable(
    summary.accounts.slice(0, 200),
    [
      { header: 'Member', text: (a) => a.memberNumber },
      { header: 'Name', text: (a) => a.name },
      { header: summary.dryRun ? 'Would be' : 'Result', text: (a) => a.action },
      { header: 'Channels', text: (a) => a.channels },
      { header: 'Bank details', text: (a) => a.bank },
    ],
    { caption: summary.accounts.length > 200 ? 'The first 200 accounts' : 'Accounts', empty: 'No accounts.' },
  );
  const confirm = summary.dryRun
    ? html`<form class="card" method="post" action="/console/accounts/import" enctype="multipart/form-data">
        !${csrfField(session)} <input type="hidden" name="mode" value="import" /><input
          type="hidden"
          name="fileName"
          value="${upload.fileName}"
        />
        <textarea name="content" hidden aria-hidden="true">${upload.content}</textarea>
        <p><button type="submit">Import these ${summary.accounts.length} accounts</button></p>
      </form>`
    : '';
  const title = summary.dryRun ? 'Import preview' : 'Import done';
  const notice = summary.dryRun
    ? { kind: 'ok' as const, text: 'Preview only: nothing has been written yet.' }
    : { kind: 'ok' as const, text: `Imported ${summary.accounts.length} accounts.` };
  return sendPage(reply, 200, { title, section: 'accounts', session, notice }, html`!${counts}!${confirm}!${table}`);
}
