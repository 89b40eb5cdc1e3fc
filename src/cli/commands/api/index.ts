import type { Command } from 'commander';
import { announceDeprecation, deprecations, type ApiDeprecation } from '../../../services/operators/deprecations.js';
import { InvalidInputError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { tableOr, type Column } from '../../output.js';

const columns: Column<ApiDeprecation>[] = [
  { header: 'Routes', value: (d) => d.routes.join(', ') },
  { header: 'Sunset', value: (d) => new Date(d.sunset_at).toISOString().slice(0, 10) },
  { header: 'Announced', value: (d) => new Date(d.announced_at).toISOString().slice(0, 10) },
  { header: 'What changes', value: (d) => d.description },
];

const deprecationJson = (d: ApiDeprecation) => ({
  id: d.id,
  routes: d.routes,
  sunsetAt: new Date(d.sunset_at).toISOString(),
  announcedAt: new Date(d.announced_at).toISOString(),
  description: d.description,
  link: d.link,
});

/** api deprecate | deprecations: breaking changes announced to partners (contract section 9.2, docs/partners.md). */
export function registerApi(program: Command, ctx: CliContext) {
  const api = program.command('api').description('The partner API itself: deprecations announced to partners');
  withOperator(
    withJson(
      api
        .command('deprecate')
        .description('Announce that routes stop on a date at least 30 days away (headers, document, partners told)')
        .requiredOption('--route <route...>', 'a route as the API reference names it, e.g. "GET /remittances"')
        .requiredOption('--sunset <date>', 'when they stop (ISO 8601 date or date-time)')
        .requiredOption('--description <text>', 'what changes and what to use instead')
        .option('--link <url>', 'a page with the details'),
    ),
  ).action((options: { route: string[]; sunset: string; description: string; link?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const sunsetAt = new Date(options.sunset);
      if (Number.isNaN(sunsetAt.getTime())) throw new InvalidInputError('--sunset must be a date (2027-03-01).');
      const announced = await announceDeprecation(ops, {
        routes: options.route,
        sunsetAt,
        description: options.description,
        ...(options.link ? { link: options.link } : {}),
      });
      out.emit(
        deprecationJson(announced),
        () => `Announced: ${announced.routes.join(', ')} stop on ${sunsetAt.toISOString().slice(0, 10)}.`,
      );
    }),
  );
  withJson(api.command('deprecations').description('List the announced deprecations')).action(
    (_options, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const rows = await deprecations(ops);
        out.emit(rows.map(deprecationJson), () => tableOr(rows, columns, 'No deprecation announced.'));
      }),
  );
}
