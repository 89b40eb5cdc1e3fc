import type { FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import type { OperatorContext } from '../../services/operators/context.js';
import { listPartners } from '../../services/operators/partners.js';
import { param } from '../route-context.js';
import { selectField } from './components.js';

/**
 * The filters of a list page (docs/console.md, "How a page is built"): read from the query string, shown as a GET form
 * (`class="filters"`), so that every filtered list has an address an operator can bookmark or send.
 */
export interface Filter<Ctx = OperatorContext> {
  /** The query-string name (and the field's id, unless `id` is given). */
  name: string;
  label: string;
  type: 'text' | 'search' | 'email' | 'date' | 'select' | 'hidden';
  /** The field's id when it differs from its name: another form of the page has a field of the same name. */
  id?: string;
  /** A select's choices: a list, or read per request (the partners). */
  options?: readonly string[] | ((ops: Ctx) => Promise<readonly string[]>);
  /** A select's first, empty option ("Any partner"); without it the select is required. */
  any?: string;
  /** The value when the one asked for is not among `options` (a list): without it, the value is passed on as asked. */
  fallback?: string;
  required?: boolean;
  maxlength?: number;
}

/** Each filter's value by name, trimmed; '' when not asked for. */
export type FilterValues = Readonly<Record<string, string>>;

/** The choices of each select, by filter name, as the form shows them. */
export type FilterOptions = Readonly<Record<string, readonly string[]>>;

/** The partners' names, for a partner filter. */
const partnerNames = async (ops: OperatorContext) => (await listPartners(ops)).map((p) => p.name);

/** The partner select most lists have; `any` names its empty choice. */
export const partnerFilter = (any = 'Any partner', id?: string): Filter => ({
  name: 'partner',
  id,
  label: 'Partner',
  type: 'select',
  options: partnerNames,
  any,
});

export function filterValues<Ctx>(request: FastifyRequest, filters: readonly Filter<Ctx>[]): FilterValues {
  const values: Record<string, string> = {};
  for (const f of filters) {
    const asked = param(request, f.name);
    const known = f.fallback === undefined || !Array.isArray(f.options) || f.options.includes(asked);
    values[f.name] = known ? asked : f.fallback!;
  }
  return values;
}

export async function filterOptions<Ctx>(filters: readonly Filter<Ctx>[], ops: Ctx): Promise<FilterOptions> {
  const loaded = await Promise.all(
    filters.map(async (f) => [f.name, typeof f.options === 'function' ? await f.options(ops) : (f.options ?? [])]),
  );
  return Object.fromEntries(loaded) as FilterOptions;
}

export interface FormOptions {
  /** Where the form goes: the list's own address. */
  action: string;
  /** The button's text. */
  submit: string;
  /** A search box (`role="search"`) rather than a filter. */
  search?: boolean;
  /** Already-rendered HTML that ends the form (a download of what it selects). */
  end?: string;
}

/** The GET form of the filters, each showing the value asked for. */
export function filterForm<Ctx>(
  filters: readonly Filter<Ctx>[],
  values: FilterValues,
  options: FilterOptions,
  form: FormOptions,
) {
  const fields = filters.map((f) => filterField(f, values[f.name] ?? '', options[f.name] ?? []));
  return html`<form class="filters" method="get" action="${form.action}" !${form.search ? 'role="search"' : ''}>
    !${fields}
    <p><button type="submit">${form.submit}</button></p>
    !${form.end ?? ''}
  </form>`;
}

function filterField<Ctx>(f: Filter<Ctx>, value: string, options: readonly string[]): string {
  const id = f.id ?? f.name;
  if (f.type === 'hidden') return html`<input type="hidden" name="${f.name}" value="${value}" />`;
  if (f.type === 'select')
    return selectField({ id, name: f.name, label: f.label, options, chosen: value || undefined, any: f.any });
  const limits = html`!${f.required ? ' required' : ''}!${f.maxlength ? html` maxlength="${f.maxlength}"` : ''}`;
  return html`<p>
    <label for="${id}">${f.label}</label
    ><input id="${id}" name="${f.name}" type="${f.type}" value="${value}" !${limits} />
  </p>`;
}
