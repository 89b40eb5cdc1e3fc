import { html } from 'ghtml';
import { bankMatchingSettings } from '../../config/index.js';
import { PRESET_NAMES, type PresetName } from '../../services/bank-statements/csv-layouts.js';
import { importStatement, type ImportResult } from '../../services/bank-statements/import-statement.js';
import { bankLines, bankStatements, openSuggestions, unpaidEntries } from '../../services/bank-statements/listings.js';
import { ImportRejectedError, InvalidInputError } from '../../services/operators/operator-errors.js';
import { field, operatorContext, param, sessionOf, type ConsolePage } from '../route-context.js';
import { changeRoute, type ShowPage } from '../views/change-route.js';
import { problemsTable, linesTable, suggestionsTable, unpaidTable } from '../views/bank.js';
import { canChange, csrfField, dataTable, readOnlyNote, selectField } from '../views/components.js';
import { sendPage } from '../views/layout.js';
import { nextLink } from '../views/list-page.js';

/** Rows of each list on the page; the CLI lists more (`fundraiser-admin bank …`). */
const LIMIT = 200;

/**
 * Bank statements (docs/bank-statements.md, "Console"): upload a camt.053 file or a CSV export, and see what is
 * waiting for a decision: suggestions to confirm or reject, credit lines not matched, entries whose money was not
 * received. The same services as `fundraiser-admin bank`.
 */
export const bankPages: ConsolePage = (app, deps) => {
  app.get('/bank', (request, reply) => bankPage(deps, request, reply));
  changeRoute(app, deps, '/bank/import', {
    run: async (request) =>
      importStatement(operatorContext(request, deps), bankMatchingSettings(deps.config), await uploadOf(request.body)),
    show: bankPage,
    explain: (err) => (err instanceof ImportRejectedError ? problemsTable(err.file, err.problems) : ''),
    done: importNotice,
  });
};

/** The uploaded statement, its layout (a preset, or a mapping pasted as JSON) and the account of a CSV. */
async function uploadOf(body: unknown) {
  const file = (body as Record<string, unknown> | undefined)?.file as
    { filename?: string; toBuffer?: () => Promise<Buffer> } | undefined;
  if (!file?.filename || !file.toBuffer) throw new InvalidInputError('Choose a statement file (.xml or .csv).');
  const preset = field(body, 'preset');
  if (preset && !(PRESET_NAMES as string[]).includes(preset))
    throw new InvalidInputError(`preset must be one of ${PRESET_NAMES.join(', ')}.`);
  const mapping = field(body, 'mapping').trim();
  if (preset && mapping) throw new InvalidInputError('Choose a bank’s layout or paste a mapping, not both.');
  return {
    fileName: file.filename,
    content: (await file.toBuffer()).toString('utf8'),
    preset: (preset || undefined) as PresetName | undefined,
    mapping: mapping ? { fileName: 'the mapping', content: mapping } : undefined,
    account: field(body, 'account').trim() || undefined,
  };
}

function importNotice(result: ImportResult): string {
  if (result.alreadyImported)
    return `${result.file} was imported before (by ${result.alreadyImported.by}): nothing was added.`;
  return (
    `${result.file}: ${result.linesRead} line(s) read, ${result.linesAdded} added, ${result.duplicates} already ` +
    `imported; ${result.automatic ?? 0} matched automatically, ${result.suggestions ?? 0} open suggestion(s).`
  );
}

/** The page, with what the last change did (`notice`) and, after a refused file, its problems (`above`). */
export const bankPage: ShowPage = async (deps, request, reply, { notice, status, above } = {}) => {
  const session = sessionOf(request);
  const ctx = operatorContext(request, deps);
  const settings = bankMatchingSettings(deps.config);
  const [suggestions, lines, unpaid, statements] = await Promise.all([
    openSuggestions(ctx, LIMIT),
    bankLines(ctx, settings, { unmatched: true, limit: LIMIT }),
    unpaidEntries(ctx, settings, { limit: LIMIT, after: param(request, 'unpaid_after') }),
    bankStatements(ctx, 10),
  ]);
  // The lists waiting for a decision come first; the upload form last, as on the other pages.
  const body = html`!${above ?? ''}
    <p><a href="/console/bank/matches">Matches made, and undoing one</a></p>
    !${suggestionsTable(suggestions, session)}!${linesTable(lines)}!${unpaidTable(unpaid.items)}
    !${unpaid.next ? nextLink('/console/bank', {}, unpaid.next, 'unpaid_after') : ''}
    !${dataTable(
      statements,
      [
        { header: 'File', text: (s) => s.file },
        { header: 'Layout', text: (s) => s.layout },
        { header: 'Lines', text: (s) => `${s.linesAdded} added of ${s.linesRead}`, numeric: true },
        { header: 'Booked', text: (s) => (s.firstBookedOn ? `${s.firstBookedOn} to ${s.lastBookedOn}` : null) },
        { header: 'Imported', text: (s) => `${s.importedAt.toISOString().slice(0, 16)}Z by ${s.importedBy}` },
      ],
      { caption: 'Latest statements', empty: 'No statement was imported yet.' },
    )}!${canChange(session) ? uploadForm(csrfField(session)) : readOnlyNote('bank matches')}`;
  return sendPage(reply, status ?? 200, { title: 'Bank statements', section: 'bank', session, notice }, body);
};

const uploadForm = (csrf: string) =>
  html`<form class="card" method="post" action="/console/bank/import" enctype="multipart/form-data">
    <h2>Import a statement</h2>
    !${csrf}
    <p>
      <label for="file">camt.053 (.xml) or CSV export</label
      ><input id="file" name="file" type="file" accept=".xml,.053,.csv,.txt" required />
    </p>
    !${selectField({ id: 'preset', label: 'CSV layout', options: PRESET_NAMES, chosen: undefined, any: 'camt.053, or the mapping below' })}
    <p>
      <label for="mapping">Or a CSV mapping (JSON, see docs/bank-statements.md)</label
      ><textarea id="mapping" name="mapping" rows="3"></textarea>
    </p>
    <p><label for="account">Account (a CSV without an account column)</label><input id="account" name="account" /></p>
    <p><button type="submit">Import and match</button></p>
    <p class="hint">A file with any bad line is refused whole. Lines already imported are not added again.</p>
  </form>`;
