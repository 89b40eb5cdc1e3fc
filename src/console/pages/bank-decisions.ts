import { bankMatchingSettings } from '../../config/index.js';
import { confirmSuggestion, rejectSuggestion, unmatch } from '../../services/bank-statements/decisions.js';
import { bankMatches } from '../../services/bank-statements/listings.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import { field, operatorContext, type ConsolePage } from '../route-context.js';
import { matchesColumns } from '../views/bank.js';
import { changeRoute } from '../views/change-route.js';
import { listPage } from '../views/list-page.js';
import { bankPage } from './bank.js';

type Id = { id: string };

/**
 * Operators' decisions on bank matches (docs/bank-statements.md, "Decisions"): confirm or reject a suggestion, and
 * the matches made, each with a form to undo it with a reason. Every decision is audited by the service.
 */
export const bankDecisionPages: ConsolePage = (app, deps) => {
  const settings = bankMatchingSettings(deps.config);
  changeRoute<Id, Awaited<ReturnType<typeof confirmSuggestion>>>(app, deps, '/bank/suggestions/:id/confirm', {
    run: (request) => confirmSuggestion(operatorContext(request, deps), settings, idOf(request.params.id)),
    show: bankPage,
    done: ({ matchId, entries }) =>
      `Confirmed as match ${matchId}: the money of ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} is received.`,
  });
  changeRoute<Id, Awaited<ReturnType<typeof rejectSuggestion>>>(app, deps, '/bank/suggestions/:id/reject', {
    run: (request) =>
      rejectSuggestion(operatorContext(request, deps), idOf(request.params.id), field(request.body, 'reason')),
    show: bankPage,
    done: ({ suggestionId }) => `Suggestion ${suggestionId} rejected; it will not be suggested again.`,
  });
  matchList.route(app, deps);
  changeRoute<Id, Awaited<ReturnType<typeof unmatch>>>(app, deps, '/bank/matches/:id/unmatch', {
    run: (request) =>
      unmatch(operatorContext(request, deps), settings, idOf(request.params.id), field(request.body, 'reason')),
    show: matchList.show,
    done: ({ matchId }) => `Match ${matchId} undone: its entries’ money is no longer received.`,
  });
};

function idOf(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new InvalidInputError(`${text} is not a number.`);
  return Number(text);
}

const MATCHES_PAGE = 200;

/** GET /bank/matches: the matches made, newest first, each with the admins' form that undoes it. */
const matchList = listPage({
  path: '/bank/matches',
  title: 'Bank matches',
  section: 'bank',
  filters: [],
  // A page at a time by key (docs/decisions/0074-operators-listings-by-key.md): the page after the last match shown.
  query: async ({ ops, after }) => {
    const matches = await bankMatches(ops, MATCHES_PAGE + 1, after === undefined ? undefined : idOf(after));
    const rows = matches.slice(0, MATCHES_PAGE);
    return { rows, next: matches.length > MATCHES_PAGE ? String(rows.at(-1)!.id) : null };
  },
  columns: ({ session }) => matchesColumns(session),
  caption: 'Matches, newest first',
  empty: 'No match yet.',
});
