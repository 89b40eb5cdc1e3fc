import { html } from 'ghtml';
import { stackedBarChart } from '../../console/views/chart.js';
import { dataTable, detailList } from '../../console/views/components.js';
import { partnerUsage, type PartnerUsage } from '../../services/portal/usage.js';
import { errorPage } from './error-page.js';
import { portalSessionOf, type PortalPage } from '../route-context.js';
import { sendPage } from '../views/layout.js';

const DAYS = 14;

function perDay({ days }: PartnerUsage): string {
  const chart = stackedBarChart({
    title: `Requests per day, succeeded and failed (${days[0]?.day} to ${days.at(-1)?.day})`,
    categories: days.map((d) => d.day),
    series: [
      { name: 'Succeeded', values: days.map((d) => d.requests - d.errors) },
      { name: 'Failed (4xx, 5xx)', values: days.map((d) => d.errors) },
    ],
  });
  const table = dataTable(
    days,
    [
      { header: 'Day', text: (d) => d.day },
      { header: 'Requests', text: (d) => d.requests, numeric: true },
      { header: 'Failed', text: (d) => d.errors, numeric: true },
    ],
    { caption: 'Requests per day', empty: 'No request in this period.' },
  );
  return html`!${chart}
    <details>
      <summary>The numbers</summary>
      !${table}
    </details>`;
}

function perRoute({ errorsByRoute }: PartnerUsage): string {
  const routes = [...new Set(errorsByRoute.map((e) => `${e.method} ${e.route}`))];
  const classes = ['4xx', '5xx'];
  const chart = stackedBarChart({
    title: 'Failed requests per route, by status class',
    categories: routes,
    series: classes.map((name) => ({
      name,
      values: routes.map((route) =>
        errorsByRoute
          .filter((e) => `${e.method} ${e.route}` === route && `${Math.floor(e.status / 100)}xx` === name)
          .reduce((n, e) => n + e.errors, 0),
      ),
    })),
  });
  const table = dataTable(
    errorsByRoute,
    [
      { header: 'Route', text: (e) => `${e.method} ${e.route}` },
      { header: 'Status', text: (e) => e.status, numeric: true },
      { header: 'Requests', text: (e) => e.errors, numeric: true },
    ],
    { caption: 'Failed requests per route and status', empty: 'No failed request in this period.' },
  );
  return html`${''}!${routes.length > 0 ? chart : ''}!${table}`;
}

/** Usage: requests per day, failures per route, the quota's current window against its limit. */
export const usagePage: PortalPage = (app, deps) => {
  app.get('/usage', { config: { portalArea: 'usage' } }, async (request, reply) => {
    const session = portalSessionOf(request);
    const usage = await partnerUsage(deps.db, session.partnerId, {
      days: DAYS,
      now: deps.now(),
      timeZone: deps.config.FOUNDATION_TIME_ZONE,
    });
    if (!usage) return errorPage(request, reply, 404, 'Your partner is not known.');
    const { quota } = usage;
    const body = html`<h2>Quota</h2>
      !${detailList([
        ['Used in this window', `${quota.used.toLocaleString('en-US')} of ${quota.limit.toLocaleString('en-US')}`],
        ['Window', `${quota.windowSeconds} s from ${quota.windowStart.toISOString()}`],
      ])}
      <h2>Requests per day (last ${DAYS} days, ${deps.config.FOUNDATION_TIME_ZONE})</h2>
      !${perDay(usage)}
      <h2>Failed requests per route</h2>
      !${perRoute(usage)}`;
    return sendPage(reply, 200, { title: 'Usage', section: 'usage', session }, body);
  });
};
