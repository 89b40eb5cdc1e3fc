import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySchemaCompiler } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import secureJson from 'secure-json-parse';
import { CHECKS_KEYWORD } from '../../../contract/checks-keyword.js';
import { findUnsafeText, type TextProblem } from '../../../domain/safe-text.js';
import { StreamedBodyHash } from '../../../domain/request-hash.js';
import {
  RemittanceEntries,
  type RemittanceBatch,
  type RemittanceEntryInput,
} from '../../../services/accept-remittances.js';

/**
 * POST /remittances reads its body as it arrives (docs/decisions/0079-remittance-body-streamed.md): each entry is
 * validated with the entry's schema alone, hashed and added to the batch's insert texts, then dropped; the other
 * members of the body (`source`, anything unknown) are small and kept. The findings are Fastify's validator's,
 * field by field and in the same order: the text check over the whole body first, then the schema's.
 */

export const SECURE = { protoAction: 'error', constructorAction: 'error' } as const;

/** `__proto__` and `constructor.prototype` are refused as Fastify's JSON parser refuses them (malformed JSON). */
export const scan = (value: unknown) => {
  if (typeof value === 'object' && value !== null) secureJson.scan(value, SECURE);
};

/** What the route's content-type parser gives the request: the source for the channel check, and the findings. */
export class RemittanceBody {
  constructor(
    /** The body's `source` member, read by the channel check before validation. */
    readonly source: unknown,
    /** The validator's findings, reported as Fastify reports a schema's. */
    readonly errors: FastifySchemaValidationError[],
    /** The batch, when nothing was found. */
    readonly batch: RemittanceBatch | null,
  ) {}
}

export interface Validators {
  /** The body with `remittances` stood in for by its length: required members, `source`, the entry count. */
  skeleton: ReturnType<FastifySchemaCompiler<unknown>>;
  entry: ReturnType<FastifySchemaCompiler<unknown>>;
  /** The whole request's schema, for a body that is not an object. */
  whole: ReturnType<FastifySchemaCompiler<unknown>>;
}

/** The validators of a streamed body, compiled from the route's schema parts. */
export function remittanceBodyValidators(
  compile: FastifySchemaCompiler<unknown>,
  schemas: { source: TSchema; entry: TSchema; maxEntries: number; whole: TSchema },
): Validators {
  const route = { method: 'POST', url: '/remittances', httpPart: 'body' };
  const skeleton = Type.Object({
    source: schemas.source,
    remittances: Type.Array(Type.Unknown(), { minItems: 1, maxItems: schemas.maxEntries }),
  });
  return {
    skeleton: compile({ ...route, schema: skeleton }),
    entry: compile({ ...route, schema: schemas.entry }),
    whole: compile({ ...route, schema: { ...schemas.whole, [CHECKS_KEYWORD]: ['text'] } }),
  };
}

const textErrors = (problems: TextProblem[]): FastifySchemaValidationError[] =>
  problems.map((problem) => ({
    keyword: CHECKS_KEYWORD,
    instancePath: problem.path
      .map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`)
      .join(''),
    schemaPath: '',
    params: {},
    message: problem.message,
  }));

/** The body's findings and batch, fed a member and an entry at a time in the body's order. */
export class BodyReader {
  private readonly members: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  private textProblems: TextProblem[] = [];
  private entryErrors: FastifySchemaValidationError[] = [];
  private hash = new StreamedBodyHash('remittances');
  private entries = new RemittanceEntries();
  private count = 0;
  private sawArray = false;

  constructor(private readonly validators: Validators) {}

  member(key: string, value: unknown): void {
    if (
      key === '__proto__' ||
      (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)
    )
      throw new SyntaxError('forbidden property');
    scan(value);
    if (key === 'remittances') this.sawArray = false;
    this.members[key] = value;
    findUnsafeText({ [key]: value }, [], this.textProblems);
  }

  /** A `remittances` array begins: as in JSON.parse, a repeated member replaces the earlier one. */
  startEntries(): void {
    delete this.members.remittances;
    this.textProblems = this.textProblems.filter((problem) => problem.path[0] !== 'remittances');
    this.entryErrors = [];
    this.hash = new StreamedBodyHash('remittances');
    this.entries = new RemittanceEntries();
    this.count = 0;
    this.sawArray = true;
  }

  entry(value: unknown): void {
    scan(value);
    const index = this.count;
    this.count += 1;
    findUnsafeText(value, ['remittances', index], this.textProblems);
    const { entry } = this.validators;
    if (!entry(value)) {
      for (const error of entry.errors ?? [])
        this.entryErrors.push({ ...error, instancePath: `/remittances/${index}${error.instancePath}` });
    }
    this.hash.element(value);
    // Once anything is wrong the batch is refused: its entries need not be kept.
    if (this.entryErrors.length === 0 && this.textProblems.length === 0)
      this.entries.add(value as RemittanceEntryInput);
  }

  finish(): RemittanceBody {
    const skeleton = { ...this.members, ...(this.sawArray ? { remittances: new Array<undefined>(this.count) } : {}) };
    const { skeleton: validate } = this.validators;
    const schemaErrors = validate(skeleton) ? [] : [...(validate.errors ?? [])];
    const errors = [...textErrors(this.textProblems), ...schemaErrors, ...this.entryErrors];
    const source = this.members.source;
    if (errors.length > 0) return new RemittanceBody(source, errors, null);
    return new RemittanceBody(source, errors, {
      source: source as RemittanceBatch['source'],
      entries: this.entries.finish(),
      requestHash: this.hash.digest(this.members),
    });
  }
}

/** A body that is not an object: validated whole, as it is small or refused anyway. */
export function wholeBodyFindings(validators: Validators, body: unknown): RemittanceBody {
  const { whole } = validators;
  return new RemittanceBody(undefined, whole(body) ? [] : [...(whole.errors ?? [])], null);
}

/** Feeds a parsed body to a reader, as the streamed path would. */
export function readParsed(validators: Validators, body: unknown): RemittanceBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return wholeBodyFindings(validators, body);
  const reader = new BodyReader(validators);
  for (const [key, value] of Object.entries(body)) {
    if (key === 'remittances' && Array.isArray(value)) {
      reader.startEntries();
      for (const entry of value) reader.entry(entry);
    } else reader.member(key, value);
  }
  return reader.finish();
}
