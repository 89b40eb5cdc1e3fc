import type { FastifyRequest, RouteGenericInterface } from 'fastify';
import { html } from 'ghtml';
import { operatorContext, sessionOf, type Notice } from '../route-context.js';
import type { App } from '../../http/route-context.js';
import { refusal, type ShowPage } from './change-route.js';
import { dataTable, type Column } from './components.js';
import {
  filterForm,
  filterOptions,
  filterValues,
  type Filter,
  type FilterOptions,
  type FilterValues,
} from './filters.js';
import { sendPage } from './layout.js';
import type { ConsoleKit } from './console-kit.js';
import type { Kit, Shell } from './shell.js';

const consoleShell: Shell<ConsoleKit> = {
  prefix: '/console',
  sendPage: (reply, status, options, body) => sendPage(reply, status, options, body),
  sessionOf: (request) => sessionOf(request),
  contextOf: (request, deps) => operatorContext(request, deps),
};

/**
 * A list page described, not written (docs/decisions/0056-console-list-pages-described.md): its filters, its
 * query and its columns. `listPage` turns the description into the GET route and into `show`, which a page's POST
 * routes call to answer with the list again and the outcome of a change.
 */
export interface ListPage<Row, K extends Kit = ConsoleKit> {
  /** Under the site's prefix: '/webhooks'. */
  path: string;
  title: string;
  section: K['section'];
  /** None: no form. */
  filters: readonly Filter<K['ctx']>[];
  /** The form's button; 'Show' unless given. */
  submit?: string;
  /** The form is a search box (`role="search"`). */
  search?: boolean;
  /** The rows for the filters' values; an operator's error (a bad date) is shown on the page with its status. */
  query: (view: ListView<K>) => Promise<readonly Row[] | ListResult<Row>>;
  columns: Column<Row>[] | ((view: ListView<K>) => Column<Row>[]);
  caption: string | ((view: ListView<K>) => string);
  empty: string | ((view: ListView<K>) => string);
  /** Already-rendered HTML: above the form (tabs), at the end of the form (a download), below the table (forms). */
  above?: (view: ListView<K>) => string;
  formEnd?: (view: ListView<K>) => string;
  below?: (view: ListView<K>) => string | Promise<string>;
}

/** What a page's query, columns and parts are given. */
export interface ListView<K extends Kit = ConsoleKit> {
  request: FastifyRequest;
  deps: K['deps'];
  session: K['session'];
  /** The services' context of the signed-in person (the console's operator context). */
  ops: K['ctx'];
  values: FilterValues;
  /** A filter's value, or undefined when it was not asked for (what the services take). */
  asked: (name: string) => string | undefined;
  /** The choices of the selects (empty while the query runs). */
  options: FilterOptions;
}

/** A query's answer when rows alone do not say it. */
export interface ListResult<Row> {
  /** null: nothing asked yet (a search before its first search), so no table either. */
  rows: readonly Row[] | null;
  /** Already-rendered HTML above the form (counts) and between the form and the table (totals, "not found"). */
  above?: string;
  summary?: string;
}

export interface ListRoutes<K extends Kit = ConsoleKit> {
  /** Registers GET <path>. */
  route: (app: App, deps: K['deps']) => void;
  /** The list, with the outcome of a change (views/change-route.ts). */
  show: ShowPage<RouteGenericInterface, K['deps']>;
}

/** A console list page. */
export function listPage<Row>(page: ListPage<Row>): ListRoutes {
  return shellListPage(consoleShell, page);
}

/** A list page of any site of the kit (the console's, the portal's). */
export function shellListPage<Row, K extends Kit>(shell: Shell<K>, page: ListPage<Row, K>): ListRoutes<K> {
  const show: ListRoutes<K>['show'] = async (deps, request, reply, shown = {}) => {
    const values = filterValues(request, page.filters);
    const view: ListView<K> = {
      request,
      deps,
      session: shell.sessionOf(request),
      ops: shell.contextOf(request, deps),
      values,
      asked: (name) => values[name] || undefined,
      options: {},
    };
    const [options, answer] = await Promise.all([filterOptions(page.filters, view.ops), run(page, view)]);
    view.options = options;
    const notice = 'refused' in answer ? answer.refused : (shown.notice ?? null);
    const status = 'refused' in answer ? answer.status : (shown.status ?? 200);
    const result: ListResult<Row> = 'refused' in answer ? { rows: null } : answer;
    const body = html`!${shown.above ?? ''}!${page.above?.(view) ?? ''}!${result.above ?? ''}!${form(shell, page, view)}
    !${result.summary ?? ''}!${result.rows ? table(page, view, result.rows) : ''}!${(await page.below?.(view)) ?? ''}`;
    const options_ = { title: page.title, section: page.section, session: view.session, notice };
    return shell.sendPage(reply, status, options_, body);
  };
  return { route: (app, deps) => app.get(page.path, (request, reply) => show(deps, request, reply)), show };
}

type Answer<Row> = ListResult<Row> | { refused: Notice; status: number };

async function run<Row, K extends Kit>(page: ListPage<Row, K>, view: ListView<K>): Promise<Answer<Row>> {
  try {
    const found = await page.query(view);
    return isResult(found) ? found : { rows: found };
  } catch (err) {
    const { notice, status } = refusal(err);
    return { refused: notice, status };
  }
}

const isResult = <Row>(found: readonly Row[] | ListResult<Row>): found is ListResult<Row> => !Array.isArray(found);

function form<Row, K extends Kit>(shell: Shell<K>, page: ListPage<Row, K>, view: ListView<K>): string {
  if (page.filters.length === 0) return '';
  return filterForm(page.filters, view.values, view.options, {
    action: `${shell.prefix}${page.path}`,
    submit: page.submit ?? 'Show',
    search: page.search,
    end: page.formEnd?.(view),
  });
}

function table<Row, K extends Kit>(page: ListPage<Row, K>, view: ListView<K>, rows: readonly Row[]): string {
  const given = <T>(part: T | ((view: ListView<K>) => T)) =>
    typeof part === 'function' ? (part as (view: ListView<K>) => T)(view) : part;
  return dataTable(rows, given(page.columns), { caption: given(page.caption), empty: given(page.empty) });
}
