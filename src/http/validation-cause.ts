import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { formatDescriptions } from './schemas/formats.js';

/**
 * Turns the validator's errors into one cause naming every failing field by its JSON path, e.g.
 * `donor.email: must be a valid email address; source.fundraiserId: is required`.
 */
export function describeValidationErrors(errors: FastifySchemaValidationError[], context: string | undefined): string {
  const parts = new Map<string, string>();
  for (const error of errors) {
    const { path, message } = describeOne(error);
    const prefix =
      context === 'body' || context === undefined ? '' : `${context === 'querystring' ? 'query' : context}.`;
    const field = path ? `${prefix}${path}` : context === 'body' ? '(body)' : prefix.slice(0, -1);
    if (!parts.has(field)) parts.set(field, message);
  }
  return [...parts].map(([field, message]) => `${field}: ${message}`).join('; ');
}

function describeOne(error: FastifySchemaValidationError): { path: string; message: string } {
  const base = pointerToPath(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return { path: join(base, String(params.missingProperty)), message: 'is required' };
    case 'format':
      return {
        path: base,
        message: formatDescriptions[String(params.format)] ?? `must match format ${String(params.format)}`,
      };
    case 'const':
      return { path: base, message: `must be one of ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return {
        path: base,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    case 'minLength':
      return {
        path: base,
        message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`,
      };
    case 'maxLength':
      return { path: base, message: `must be at most ${String(params.limit)} characters` };
    case 'type':
      return { path: base, message: `must be ${article(String(params.type))}` };
    default:
      return { path: base, message: error.message ?? 'is invalid' };
  }
}

function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : join(path, segment)), '');
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
