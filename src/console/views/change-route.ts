import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { App } from '../../http/route-context.js';
import { OperatorError } from '../../services/operators/operator-errors.js';
import { statusOf } from '../pages/error-page.js';
import type { ConsoleDeps, Notice } from '../route-context.js';

/** How a page is shown again after a change: its outcome, its status, and HTML above everything (a file's problems). */
export interface Shown {
  notice?: Notice;
  status?: number;
  above?: string;
}

/** A page that can show the outcome of a change: a record's page, or a list's `show` (views/list-page.ts). */
export type ShowPage<Route extends RouteGenericInterface = RouteGenericInterface, Deps = ConsoleDeps> = (
  deps: Deps,
  request: FastifyRequest<Route>,
  reply: FastifyReply,
  shown?: Shown,
) => Promise<unknown>;

/** An error the operator can act on (invalid input, a conflict, not found) as a notice with its status; any other is thrown on. */
export function refusal(err: unknown): { notice: Notice; status: number } {
  if (!(err instanceof OperatorError)) throw err;
  return { notice: { kind: 'error', text: err.message }, status: statusOf(err) };
}

export interface Change<Params, Done, Deps = ConsoleDeps> {
  /** The change, through the services. */
  run: (request: FastifyRequest<{ Params: Params }>) => Promise<Done>;
  /** The page the operator came from: shown again with why the change was refused, or with what it did. */
  show: ShowPage<{ Params: Params }, Deps>;
  /** What was done, as the notice of `show`; or the answer itself (a redirect, another page). */
  done: (
    done: Done,
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
  ) => string | FastifyReply | Promise<unknown>;
  /** HTML that explains a refusal above the page (the rows of a refused file). */
  explain?: (err: OperatorError) => string;
}

/**
 * A POST that changes something (who may make it is the site's guard's business): a refusal the person can act on is
 * shown on the page they came from with its status and nothing changed; anything else goes to the site's error
 * handler. The console's and the portal's pages both use it.
 */
export function changeRoute<Params, Done, Deps = ConsoleDeps>(
  app: App,
  deps: Deps,
  path: string,
  change: Change<Params, Done, Deps>,
) {
  app.post<{ Params: Params }>(path, async (request, reply) => {
    let done: Done;
    try {
      done = await change.run(request);
    } catch (err) {
      const refused = refusal(err);
      const above = change.explain?.(err as OperatorError);
      return change.show(deps, request, reply, { ...refused, above });
    }
    const answer = await change.done(done, request, reply);
    if (typeof answer !== 'string') return answer;
    return change.show(deps, request, reply, { notice: { kind: 'ok', text: answer }, status: 200 });
  });
}
