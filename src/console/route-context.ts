import type { FastifyRequest } from 'fastify';
import type { App } from '../http/route-context.js';
import type { ConsoleSession } from '../services/console/sessions.js';
import type { ConsoleDeps } from './views/console-kit.js';
import type { OperatorContext } from '../services/operators/context.js';
import { OperatorError } from '../services/operators/operator-errors.js';
import { statusOf } from './pages/error-page.js';

export type { ConsoleDeps };

/** One page (or a group of routes under one page): registered by the console plugin. */
export type ConsolePage = (app: App, deps: ConsoleDeps) => void;

export const SESSION_COOKIE = 'console_session';
export const LOGIN_CSRF_COOKIE = 'console_login_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator; set on every console route but the sign-in page and the static files. */
    consoleSession: ConsoleSession | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in page, static files). */
    consolePublic?: boolean;
    /** A POST any signed-in operator may make (sign out); every other POST is a change, for admins only. */
    consoleAnyRole?: boolean;
  }
}

export function sessionOf(request: FastifyRequest): ConsoleSession {
  if (!request.consoleSession) throw new Error('console route reached without a session');
  return request.consoleSession;
}

/** The services' operator context: the signed-in operator is the actor of every audited change. */
export function operatorContext(request: FastifyRequest, deps: ConsoleDeps): OperatorContext {
  return { db: deps.db, operator: sessionOf(request).email, now: deps.now };
}

/** A form field from a urlencoded body (a string) or a multipart one ({ value }); '' when absent. */
export function field(body: unknown, name: string): string {
  const raw = (body as Record<string, unknown> | null | undefined)?.[name];
  const value = Array.isArray(raw) ? (raw[0] as unknown) : raw;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string') return value.value;
  return '';
}

/** All values of a repeated field (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const raw = (body as Record<string, unknown> | null | undefined)?.[name];
  const list: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : raw === undefined ? [] : [raw];
  return list.map((v) => (typeof v === 'string' ? v : field({ v }, 'v'))).filter((v) => v !== '');
}

/** A query-string parameter, trimmed; '' when absent. */
export function param(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

export type Notice = { kind: 'ok' | 'error'; text: string } | null;

/**
 * Runs an operator's change; an error they can act on (invalid input, a conflict, not found) is shown on the page
 * they came from, with its status, instead of an error page. Anything else goes to the error handler. A page whose
 * change answers with the page itself uses changeRoute (views/change-route.ts); this serves pages that answer with
 * another one of their own.
 */
export async function attempt<T>(
  change: () => Promise<T>,
  rerender: (notice: Notice, status: number) => Promise<unknown>,
): Promise<{ done: T } | { shown: unknown }> {
  try {
    return { done: await change() };
  } catch (err) {
    if (!(err instanceof OperatorError)) throw err;
    return { shown: await rerender({ kind: 'error', text: err.message }, statusOf(err)) };
  }
}
