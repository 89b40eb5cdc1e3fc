import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/route-context.js';
import type { ConsoleDeps } from '../../src/console/route-context.js';
import { ImportRejectedError, InvalidInputError, NotFoundError } from '../../src/services/operators/operator-errors.js';
import { changeRoute } from '../../src/console/views/change-route.js';
import { listPage } from '../../src/console/views/list-page.js';

/**
 * The list-page kit on its own (src/console/views/list-page.ts): the form shows what was asked, the query gets the
 * filters' values, an operator's error becomes the page's notice and status. The pages built with it are tested
 * over HTTP against a real database (the other files of this folder); this page's query reads no database.
 */
const fruit = [
  { name: 'apple', colour: 'red' },
  { name: 'banana', colour: 'yellow' },
  { name: 'cherry', colour: 'red' },
];

const asked: Record<string, string | undefined>[] = [];

const fruitList = listPage({
  path: '/fruit',
  title: 'Fruit',
  section: 'dashboard',
  submit: 'Filter',
  search: true,
  filters: [
    { name: 'q', label: 'Name', type: 'search', maxlength: 20 },
    { name: 'colour', label: 'Colour', type: 'select', options: ['red', 'yellow'], any: 'Any colour' },
    { name: 'view', label: 'View', type: 'hidden', options: ['all', 'few'], fallback: 'all' },
    { name: 'from', label: 'From (UTC day)', type: 'date' },
  ],
  query: async ({ asked: value, values }) => {
    asked.push({ q: value('q'), colour: value('colour'), view: values.view, from: value('from') });
    if (value('from') === 'nonsense') throw new InvalidInputError('from is not a date.');
    if (value('q') === 'ghost') throw new NotFoundError('No fruit is called ghost.');
    if (value('q') === 'nothing') return { rows: null, summary: '<p class="empty">Ask for something.</p>' };
    const rows = fruit.filter(
      (f) => (!value('colour') || f.colour === value('colour')) && f.name.includes(value('q') ?? ''),
    );
    return { rows, summary: `<p>${rows.length} found.</p>` };
  },
  columns: ({ session }) => [
    { header: 'Name', text: (f) => f.name },
    { header: 'Colour', text: (f) => f.colour },
    { header: 'Seen by', text: () => session.email },
  ],
  caption: ({ values }) => (values.colour ? `Fruit that is ${values.colour}` : 'All fruit'),
  empty: 'No fruit matches.',
  below: () => '<p class="below">Below the table.</p>',
});

let app: App;

beforeAll(async () => {
  app = Fastify();
  app.decorateRequest('consoleSession', null);
  app.addHook('onRequest', async (request) => {
    request.consoleSession = { email: 'ada@foundation.example', role: 'viewer', csrfToken: 'token' };
  });
  const deps = { now: () => new Date() } as unknown as ConsoleDeps;
  fruitList.route(app, deps);
  app.post('/fruit', (request, reply) =>
    fruitList.show(deps, request, reply, { notice: { kind: 'ok', text: 'Picked.' }, status: 201, above: '<p>Top</p>' }),
  );
  changeRoute<{ name: string }, { name: string }>(app, deps, '/fruit/:name/eat', {
    run: async (request) => {
      const { name } = request.params;
      if (name === 'stone')
        throw new ImportRejectedError('stones.csv', [{ row: 'line 2', field: 'name', message: 'not fruit' }]);
      if (name === 'bomb') throw new Error('not an operator error');
      if (!fruit.some((f) => f.name === name)) throw new NotFoundError(`No fruit is called ${name}.`);
      return { name };
    },
    show: fruitList.show,
    explain: (err) =>
      err instanceof ImportRejectedError ? `<p class="problems">${err.problems.length} problem</p>` : '',
    done: ({ name }, _request, reply) =>
      name === 'cherry' ? reply.redirect('/console/fruit', 303) : `Ate the ${name}.`,
  });
  app.setErrorHandler((error: Error, _request, reply) => reply.code(500).send(`error page: ${error.message}`));
  await app.ready();
});

afterAll(() => app.close());

describe('a list page described with listPage', () => {
  it('shows the form with the values asked for, and the rows the query found for them', async () => {
    const page = await app.inject({ url: '/fruit?colour=red&q=ch&view=few' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(asked.at(-1)).toEqual({ q: 'ch', colour: 'red', view: 'few', from: undefined });
    expect(page.body).toContain('<form class="filters" method="get" action="/console/fruit" role="search">');
    expect(page.body).toMatch(/<input id="q" name="q" type="search" value="ch"\s+maxlength="20"/);
    expect(page.body).toContain('<option selected>red</option>');
    expect(page.body).toContain('<input type="hidden" name="view" value="few" />');
    expect(page.body).toContain('<button type="submit">Filter</button>');
    expect(page.body).toContain('<p>1 found.</p>');
    expect(page.body).toMatch(/<caption>\s*Fruit that is red\s*<\/caption>/);
    expect(page.body).toContain('<td>cherry</td>');
    expect(page.body).not.toContain('<td>apple</td>');
    expect(page.body).toContain('<td>ada@foundation.example</td>');
    expect(page.body.indexOf('</form>')).toBeLessThan(page.body.indexOf('<table>'));
    expect(page.body.indexOf('</table>')).toBeLessThan(page.body.indexOf('Below the table.'));
  });

  it('takes a hidden or select value that is not an option as its fallback', async () => {
    const page = await app.inject({ url: '/fruit?view=everything' });
    expect(asked.at(-1)).toMatchObject({ view: 'all' });
    expect(page.body).toContain('<input type="hidden" name="view" value="all" />');
  });

  it('escapes what was asked for', async () => {
    const page = await app.inject({ url: `/fruit?q=${encodeURIComponent('"><script>')}` });
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('value="&#34;&#62;&#60;script&#62;"');
  });

  it('shows no table when the query asked nothing yet, and the empty text when nothing matches', async () => {
    const nothing = await app.inject({ url: '/fruit?q=nothing' });
    expect(nothing.body).toContain('Ask for something.');
    expect(nothing.body).not.toContain('<table>');
    expect(nothing.body).not.toContain('No fruit matches.');
    const none = await app.inject({ url: '/fruit?q=kiwi' });
    expect(none.body).toContain('<p class="empty">No fruit matches.</p>');
  });

  it("turns an operator's error into the page's notice and status, with the form kept", async () => {
    const invalid = await app.inject({ url: '/fruit?from=nonsense' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('<p class="notice error" role="alert">from is not a date.</p>');
    expect(invalid.body).toContain('value="nonsense"');
    expect(invalid.body).not.toContain('<table>');
    const missing = await app.inject({ url: '/fruit?q=ghost' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('No fruit is called ghost.');
  });

  it('answers a change with the list again, its notice, its status and what goes above', async () => {
    const page = await app.inject({ method: 'POST', url: '/fruit?colour=yellow' });
    expect(page.statusCode).toBe(201);
    expect(page.body).toContain('<p class="notice ok" role="status">Picked.</p>');
    expect(page.body.indexOf('<p>Top</p>')).toBeLessThan(page.body.indexOf('<form class="filters"'));
    expect(page.body).toContain('<td>banana</td>');
  });
});

describe('a list page without filters', () => {
  it('has no form', async () => {
    const bare = Fastify() as unknown as App;
    bare.decorateRequest('consoleSession', null);
    bare.addHook('onRequest', async (request) => {
      request.consoleSession = { email: 'vic@foundation.example', role: 'viewer', csrfToken: 'token' };
    });
    listPage({
      path: '/all',
      title: 'All',
      section: 'dashboard',
      filters: [],
      query: async () => fruit,
      columns: [{ header: 'Name', text: (f) => f.name }],
      caption: 'All fruit',
      empty: 'None.',
    }).route(bare, {} as ConsoleDeps);
    const page = await bare.inject({ url: '/all' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<form class="filters"');
    expect(page.body).toContain('<td>apple</td>');
    await bare.close();
  });
});

describe('a change answered with changeRoute', () => {
  it('shows the page again with what was done as the notice, or answers as `done` says', async () => {
    const eaten = await app.inject({ method: 'POST', url: '/fruit/apple/eat?colour=red' });
    expect(eaten.statusCode).toBe(200);
    expect(eaten.body).toContain('<p class="notice ok" role="status">Ate the apple.</p>');
    expect(eaten.body).toMatch(/<caption>\s*Fruit that is red\s*<\/caption>/);
    const redirected = await app.inject({ method: 'POST', url: '/fruit/cherry/eat' });
    expect(redirected.statusCode).toBe(303);
    expect(redirected.headers.location).toBe('/console/fruit');
  });

  it("shows an operator's error with its status, explained above the page; any other goes to the error handler", async () => {
    const missing = await app.inject({ method: 'POST', url: '/fruit/kiwi/eat' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<p class="notice error" role="alert">No fruit is called kiwi.</p>');
    const rejected = await app.inject({ method: 'POST', url: '/fruit/stone/eat' });
    expect(rejected.statusCode).toBe(400);
    expect(rejected.body.indexOf('<p class="problems">1 problem</p>')).toBeGreaterThan(-1);
    expect(rejected.body.indexOf('<p class="problems">')).toBeLessThan(rejected.body.indexOf('<form class="filters"'));
    const failed = await app.inject({ method: 'POST', url: '/fruit/bomb/eat' });
    expect(failed.statusCode).toBe(500);
    expect(failed.body).toBe('error page: not an operator error');
  });
});
