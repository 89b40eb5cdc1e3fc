import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import { statusOf } from '../../console/pages/error-page.js';
import { OperatorError } from '../../services/operators/operator-errors.js';
import { sendPage } from '../views/layout.js';

/** A page that says what went wrong, in the portal's frame, with the status to match. */
export function errorPage(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Error' : 'Refused';
  return sendPage(
    reply,
    status,
    { title, session: request.portalSession },
    html`<p class="notice error" role="alert">${message}</p>
      <p><a href="/portal">Back to the overview</a></p>`,
  );
}

/** The same page for every object the user may not see: another partner's answers exactly like an unknown one. */
export const notFoundPage = (request: FastifyRequest, reply: FastifyReply) =>
  errorPage(request, reply, 404, 'There is no such page in the portal.');

/** Users' mistakes become their message with a 4xx; anything else a 500 page with no internals. */
export function portalErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OperatorError) return errorPage(request, reply, statusOf(error), error.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const message = error.statusCode === 413 ? 'The form is too large.' : 'The request was not understood.';
    return errorPage(request, reply, error.statusCode, message);
  }
  request.log.error({ err: error }, 'portal: unexpected failure');
  return errorPage(request, reply, 500, 'Something went wrong; it has been logged. Try again in a moment.');
}
