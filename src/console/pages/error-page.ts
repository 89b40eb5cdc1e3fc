import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'ghtml';
import {
  ConflictError,
  ImportRejectedError,
  InvalidInputError,
  NotFoundError,
  OperatorError,
} from '../../services/operators/operator-errors.js';
import { sendPage } from '../views/layout.js';

/** A page that says what went wrong, in the console's frame, with the status to match. */
export function errorPage(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Error' : 'Refused';
  return sendPage(
    reply,
    status,
    { title, session: request.consoleSession },
    html`<p class="notice error" role="alert">${message}</p>
      <p><a href="/console">Back to the dashboard</a></p>`,
  );
}

/** Operators' mistakes become their message with a 4xx; anything else a 500 page with no internals. */
export function consoleErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OperatorError) return errorPage(request, reply, statusOf(error), error.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const message = error.statusCode === 413 ? 'The file or form is too large.' : 'The request was not understood.';
    return errorPage(request, reply, error.statusCode, message);
  }
  request.log.error({ err: error }, 'console: unexpected failure');
  return errorPage(request, reply, 500, 'Something went wrong; it has been logged. Try again in a moment.');
}

export function statusOf(error: OperatorError): number {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  if (error instanceof InvalidInputError || error instanceof ImportRejectedError) return 400;
  return 400;
}
