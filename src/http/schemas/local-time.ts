import type { FastifyServerOptions } from 'fastify';
import { instantOf, isLocalDateTime } from '../../domain/instant.js';
import { LOCAL_TIME_KEYWORD } from '../../contract/local-time-keyword.js';

/** Fastify's validator (Ajv), as its `onCreate` option receives it. */
type Validator = Parameters<NonNullable<NonNullable<FastifyServerOptions['ajv']>['onCreate']>>[0];

interface KeywordError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

/** Shared by every passing value (nearly all of them): passing allocates nothing. Never mutated. */
const NO_ERRORS: KeywordError[] = [];

/**
 * Registers `x-local-time` for this app's zone. Only a well-formed local date-time is judged (the format reports
 * anything else), so the only failure is a time the zone skips when clocks go forward: its own message says so,
 * where the format's can only state the rule.
 */
export function addLocalTimeKeyword(ajv: Validator, timeZone: string): void {
  const message =
    `is a local time that does not exist in ${timeZone} (its clocks skip it, as when daylight saving starts); ` +
    'send the time with its offset';
  function validate(
    this: unknown,
    enabled: boolean,
    data: unknown,
    _parent: unknown,
    context?: { instancePath?: string },
  ): boolean {
    const skipped = enabled && typeof data === 'string' && isLocalDateTime(data) && instantOf(data, timeZone) === null;
    validate.errors = skipped
      ? [
          {
            keyword: LOCAL_TIME_KEYWORD,
            instancePath: context?.instancePath ?? '',
            schemaPath: '',
            params: {},
            message,
          },
        ]
      : NO_ERRORS;
    return !skipped;
  }
  validate.errors = NO_ERRORS;
  ajv.addKeyword({ keyword: LOCAL_TIME_KEYWORD, schemaType: 'boolean', errors: true, validate });
}
