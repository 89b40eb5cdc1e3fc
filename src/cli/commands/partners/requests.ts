import type { Command } from 'commander';
import type { LoggedRequest } from '../../../services/portal/request-log.js';
import { partnerRequests } from '../../../services/operators/partner-requests.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { formatTime, tableOr, type Column } from '../../output.js';

const columns: Column<LoggedRequest>[] = [
  { header: 'When', value: (r) => formatTime(r.at) },
  { header: 'Request', value: (r) => `${r.method} ${r.route}` },
  { header: 'Status', value: (r) => String(r.status) },
  { header: 'Error', value: (r) => [r.errorCode, r.errorCause].filter(Boolean).join(': ') },
  { header: 'ms', value: (r) => r.latencyMs.toFixed(1) },
  { header: 'Correlation id', value: (r) => r.correlationId },
  { header: 'Credential', value: (r) => r.clientId ?? '' },
];

const requestJson = (r: LoggedRequest) => ({ ...r, at: r.at.toISOString() });

/** partners requests: a partner's logged API calls, for support answering "why did my call fail?". */
export function registerPartnersRequests(partners: Command, ctx: CliContext) {
  withJson(
    partners
      .command('requests')
      .description('List a partner’s logged API requests, newest first (bodies masked; see the portal for them)')
      .argument('<partner>', 'partner name or id')
      .option('--correlation-id <id>', 'the X-Correlation-ID of one call')
      .option('--status <status>', 'a status (404) or a class (4xx)')
      .option('--route <route>', 'a route as logged, e.g. /v1/donations')
      .option('--limit <n>', 'the latest n requests (1-200)', wholeNumber(1, 200), 50),
  ).action(
    (
      ref: string,
      options: { correlationId?: string; status?: string; route?: string; limit: number },
      command: Command,
    ) =>
      ctx.run(command, async ({ ops, out }) => {
        const { requests } = await partnerRequests(ops, ref, options);
        out.emit(requests.map(requestJson), () => tableOr(requests, columns, 'No logged request matches.'));
      }),
  );
}
