import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import type { Config } from '../../config/index.js';
import { configureValidator } from './checks.js';
import { customFormats } from './formats.js';
import { addLocalTimeKeyword } from './local-time.js';

/** The validator's options (Fastify's `ajv`): one pass naming every failing field, no coercion, our formats. */
export function validatorOptions(config: Config) {
  return {
    customOptions: { allErrors: true, coerceTypes: false, removeAdditional: false, formats: customFormats },
    onCreate: (ajv: Parameters<ReturnType<typeof configureValidator>>[0]) => {
      configureValidator(customFormats)(ajv);
      // The foundation's zone is a setting: each app's validator judges local times in its own.
      addLocalTimeKeyword(ajv, config.FOUNDATION_TIME_ZONE);
    },
  };
}

/**
 * A schema compiler configured as Fastify's own (the same package, the same options), for a route that checks its
 * body itself (a streamed body, docs/decisions/0079-remittance-body-streamed.md) and its other parts as usual.
 */
export function validatorCompiler(config: Config): FastifySchemaCompiler<unknown> {
  return AjvCompiler()({}, validatorOptions(config)) as FastifySchemaCompiler<unknown>;
}
