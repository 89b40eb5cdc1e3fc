import type { FastifyInstance, FastifyServerOptions, RouteOptions } from 'fastify';
import { isValidPostalCode, normaliseCountry } from '../../domain/address.js';
import { CONTROL_CHARACTERS_MESSAGE, findUnsafeText, hasControlCharacters } from '../../domain/safe-text.js';
import { CHECKS_KEYWORD, type CheckName } from '../../contract/checks-keyword.js';

interface CheckError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

type Check = (data: unknown, instancePath: string) => CheckError[];

const error = (instancePath: string, message: string): CheckError => ({
  keyword: CHECKS_KEYWORD,
  instancePath,
  schemaPath: '',
  params: {},
  message,
});

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Shared by every passing check (most of them): a check that passes allocates nothing. Never mutated. */
const NO_ERRORS: CheckError[] = [];

const CHECKS: Record<CheckName, Check> = {
  // PostgreSQL refuses NUL and unpaired surrogates (in text and in jsonb): they are refused here, at any depth,
  // so that they are a 400 naming the field instead of a failed INSERT.
  text: (data, instancePath) => {
    const problems = findUnsafeText(data);
    if (problems.length === 0) return NO_ERRORS;
    return problems.map((problem) =>
      error(`${instancePath}${problem.path.map((s) => `/${escapePointer(String(s))}`).join('')}`, problem.message),
    );
  },
  // Named by the bounded text of the wire schemas (contract/common.ts), not by free-form sourceMetadata, which is
  // stored verbatim. A value of another type is the type keyword's error, reported on its own.
  'no-control-characters': (data, instancePath) =>
    typeof data === 'string' && hasControlCharacters(data)
      ? [error(instancePath, CONTROL_CHARACTERS_MESSAGE)]
      : NO_ERRORS,
  // The postcode's rule depends on the country: four digits for Australia or no country
  // (docs/decisions/0010-donor-validation-follows-the-endpoint-reference.md).
  'postcode-for-country': (data, instancePath) => {
    if (typeof data !== 'object' || data === null) return [];
    const { postalCode, country } = data as { postalCode?: unknown; country?: unknown };
    if (typeof postalCode !== 'string' || postalCode.trim() === '') return [];
    const countryText = typeof country === 'string' ? country.trim() : '';
    const code = countryText === '' ? null : normaliseCountry(countryText);
    // An unrecognised country is reported on its own field; the postcode is then judged as the country's rule cannot be known.
    if (countryText !== '' && code === null) return [];
    return isValidPostalCode(postalCode, code)
      ? []
      : [error(`${instancePath}/postalCode`, 'must be 4 digits for an Australian address')];
  },
};

/**
 * Registers `x-checks` on the validator. Errors carry their own instancePath so that the cause names the exact
 * field, and with `allErrors` they are reported together with every schema error of the request.
 */
/** Fastify's validator (Ajv), as its `onCreate` option receives it. */
type Validator = Parameters<NonNullable<NonNullable<FastifyServerOptions['ajv']>['onCreate']>>[0];

function addChecksKeyword(ajv: Validator): void {
  function validate(
    this: unknown,
    names: CheckName[],
    data: unknown,
    _parent: unknown,
    context?: { instancePath?: string },
  ): boolean {
    let errors: CheckError[] = NO_ERRORS;
    for (const name of names) {
      const found = CHECKS[name](data, context?.instancePath ?? '');
      if (found.length > 0) errors = [...errors, ...found];
    }
    validate.errors = errors;
    return errors.length === 0;
  }
  validate.errors = [] as CheckError[];
  ajv.addKeyword({ keyword: CHECKS_KEYWORD, schemaType: 'array', errors: true, validate });
}

const PARTS = ['body', 'querystring', 'params', 'headers'] as const;

/**
 * Every part of every route (body, query, path parameters, headers) gets the text check at its root, so no field
 * anywhere, however deep in free-form `sourceMetadata`, can carry text the database refuses. Registered before
 * the routes.
 */
export function checkTextOfEveryRoute(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of PARTS) {
      const partSchema = schema[part] as Record<string, unknown> | undefined;
      if (!partSchema || typeof partSchema !== 'object') continue;
      const existing = (partSchema[CHECKS_KEYWORD] as CheckName[] | undefined) ?? [];
      schema[part] = { ...partSchema, [CHECKS_KEYWORD]: [...new Set<CheckName>(['text', ...existing])] };
    }
  });
}

/** The validator's set-up: our formats win over ajv-formats' (registered before this runs), and `x-checks`. */
export function configureValidator(formats: Record<string, Parameters<Validator['addFormat']>[1]>) {
  return (ajv: Validator) => {
    for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
    addChecksKeyword(ajv);
  };
}
