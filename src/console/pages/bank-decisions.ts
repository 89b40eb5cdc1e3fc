import type { FastifyReply, FastifyRequest } from 'fastify';
import { bankMatchingSettings } from '../../config/index.js';
import { confirmSuggestion, rejectSuggestion, unmatch } from '../../services/bank-statements/decisions.js';
import { bankMatches } from '../../services/bank-statements/listings.js';
import { InvalidInputError } from '../../services/operators/operator-errors.js';
import {
  attempt,
  field,
  operatorContext,
  sessionOf,
  type ConsoleDeps,
  type ConsolePage,
  type Notice,
} from '../route-context.js';
import { matchesTable } from '../views/bank.js';
import { sendPage } from '../views/layout.js';
import { bankPage } from './bank.js';

type Id = { Params: { id: string } };

/**
 * Operators' decisions on bank matches (docs/bank-statements.md, "Decisions"): confirm or reject a suggestion, and
 * the matches made, each with a form to undo it with a reason. Every decision is audited by the service.
 */
export const bankDecisionPages: ConsolePage = (app, deps) => {
  const settings = bankMatchingSettings(deps.config);
  const back = (request: FastifyRequest, reply: FastifyReply) => (notice: Notice, status: number) =>
    bankPage(deps, request, reply, notice, status);

  app.post<Id>('/bank/suggestions/:id/confirm', async (request, reply) => {
    const outcome = await attempt(
      () => confirmSuggestion(operatorContext(request, deps), settings, idOf(request.params.id)),
      back(request, reply),
    );
    if ('shown' in outcome) return outcome.shown;
    const { matchId, entries } = outcome.done;
    const text = `Confirmed as match ${matchId}: the money of ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} is received.`;
    return bankPage(deps, request, reply, { kind: 'ok', text }, 200);
  });

  app.post<Id>('/bank/suggestions/:id/reject', async (request, reply) => {
    const outcome = await attempt(
      () => rejectSuggestion(operatorContext(request, deps), idOf(request.params.id), field(request.body, 'reason')),
      back(request, reply),
    );
    if ('shown' in outcome) return outcome.shown;
    const text = `Suggestion ${outcome.done.suggestionId} rejected; it will not be suggested again.`;
    return bankPage(deps, request, reply, { kind: 'ok', text }, 200);
  });

  app.get('/bank/matches', (request, reply) => matchesPage(deps, request, reply, null, 200));

  app.post<Id>('/bank/matches/:id/unmatch', async (request, reply) => {
    const outcome = await attempt(
      () => unmatch(operatorContext(request, deps), settings, idOf(request.params.id), field(request.body, 'reason')),
      (notice, status) => matchesPage(deps, request, reply, notice, status),
    );
    if ('shown' in outcome) return outcome.shown;
    const text = `Match ${outcome.done.matchId} undone: its entries’ money is no longer received.`;
    return matchesPage(deps, request, reply, { kind: 'ok', text }, 200);
  });
};

function idOf(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new InvalidInputError(`${text} is not a number.`);
  return Number(text);
}

async function matchesPage(
  deps: ConsoleDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  notice: Notice,
  status: number,
) {
  const session = sessionOf(request);
  const matches = await bankMatches(operatorContext(request, deps), 200);
  return sendPage(
    reply,
    status,
    { title: 'Bank matches', section: 'bank', session, notice },
    matchesTable(matches, session),
  );
}
