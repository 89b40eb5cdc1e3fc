import { html } from 'ghtml';
import type { ConsoleSession } from '../../services/console/sessions.js';

/** Small building blocks of the console's pages; every value is escaped by `html`. */
export interface Column<T> {
  header: string;
  /** Text, escaped. */
  text?: (row: T) => unknown;
  /** Already-rendered HTML (a link, a form). */
  cell?: (row: T) => string;
  numeric?: boolean;
}

export function dataTable<T>(rows: readonly T[], columns: Column<T>[], options: { caption: string; empty: string }) {
  if (rows.length === 0) return html`<p class="empty">${options.empty}</p>`;
  const head = columns.map((c) => html`<th scope="col" !${c.numeric ? ' class="num"' : ''}>${c.header}</th>`);
  const body = rows.map(
    (row) =>
      html`<tr>
        !${columns.map((c) => html`<td!${c.numeric ? ' class="num"' : ''}>!${c.cell ? c.cell(row) : html`${show(c.text?.(row))}`}</td>`)}
      </tr>`,
  );
  return html`<div class="table-wrap">
    <table>
      <caption>
        ${options.caption}
      </caption>
      <thead>
        <tr>
          !${head}
        </tr>
      </thead>
      <tbody>
        !${body}
      </tbody>
    </table>
  </div>`;
}

/** Already-rendered HTML (a link) as a value of `detailList`, inserted as it is; every other value is escaped. */
export class Markup {
  constructor(readonly html: string) {}
}

/** Label/value pairs of one record. */
export function detailList(pairs: [label: string, value: unknown][]): string {
  return html`<dl class="details">
    !${pairs.map(
      ([label, value]) =>
        html`<dt>${label}</dt>
          <dd>!${value instanceof Markup ? value.html : html`${show(value)}`}</dd>`,
    )}
  </dl>`;
}

/**
 * A labelled choice in a `<p>`, the chosen value selected. `any` adds a first, empty option (a filter's "any"); without
 * it the field is required.
 */
export function selectField(field: {
  id: string;
  name?: string;
  label: string;
  options: readonly string[];
  chosen: string | undefined;
  any?: string;
}): string {
  const { id, label, options, chosen, any } = field;
  return html`<p>
    <label for="${id}">${label}</label
    ><select id="${id}" name="${field.name ?? id}" !${any === undefined ? 'required' : ''}>
      !${any === undefined ? '' : html`<option value="">${any}</option>`}
      !${options.map((o) => html`<option!${o === chosen ? ' selected' : ''}>${o}</option>`)}
    </select>
  </p>`;
}

/** The session's CSRF token in a form: a console's or a portal's session. */
export const csrfField = (session: { csrfToken: string }) =>
  html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;

export const link = (href: string, text: unknown) => html`<a href="${href}">${show(text)}</a>`;

export const canChange = (session: ConsoleSession) => session.role === 'admin';

/** What a viewer sees where an admin sees a form. */
export const readOnlyNote = (what: string) =>
  html`<p class="readonly">Your role (viewer) can read but not change ${what}.</p>`;

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (Array.isArray(value)) return value.length === 0 ? '–' : value.map(show).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return `${value as string | number | boolean}`;
}

/** Builds a query string from the non-empty values. */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== '') params.set(key, `${value}`);
  const text = params.toString();
  return text ? `?${text}` : '';
}
