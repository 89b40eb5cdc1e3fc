import { Type } from '@sinclair/typebox';
import { apiBaseUrl, type Config } from '../../../config/index.js';
import { ApiError } from '../../../api-errors.js';
import type { App } from '../../route-context.js';
import { errorResponses, ResponseHeaders } from '../../schemas/responses.js';
import { hostServers, type OperationsDeps } from './context.js';

const EXAMPLE = `Contact: mailto:security@foundation.example
Expires: 2027-06-30T00:00:00.000Z
Preferred-Languages: en
Canonical: https://api.foundation.example/.well-known/security.txt
`;

/**
 * GET /.well-known/security.txt (RFC 9116): where a researcher reports a vulnerability in this deployment, from
 * SECURITY_CONTACT and SECURITY_TXT_EXPIRES (required in production). Public, as the RFC intends. Not served (404)
 * where no contact is set.
 */
export default async function securityTxtRoute(app: App, { config }: OperationsDeps) {
  const body = config.SECURITY_CONTACT ? securityTxt(config) : null;
  app.get(
    '/.well-known/security.txt',
    {
      schema: {
        operationId: 'getSecurityTxt',
        tags: ['operations'],
        summary: 'Security contact (RFC 9116)',
        description:
          'Where to report a vulnerability in this deployment: its contacts and their expiry. 404 where the ' +
          'deployment sets no SECURITY_CONTACT (required in production).',
        servers: hostServers(config),
        response: {
          200: {
            description: 'The security.txt file.',
            headers: ResponseHeaders.correlationId,
            content: { 'text/plain': { schema: Type.String(), example: EXAMPLE } },
          },
          ...errorResponses('/.well-known/security.txt', 'NOT_FOUND'),
        },
      },
      config: { public: true, envelopeMethod: '/.well-known/security.txt' },
    },
    async (_request, reply) => {
      if (!body) throw new ApiError('NOT_FOUND', 'No security contact is set on this deployment (SECURITY_CONTACT)');
      return reply.type('text/plain; charset=utf-8').send(body);
    },
  );
}

/** The file's fields; a missing expiry (outside production) is a year from start-up, as the RFC advises at most. */
function securityTxt(config: Config): string {
  const contacts = (config.SECURITY_CONTACT ?? '')
    .split(',')
    .map((contact) => contact.trim())
    .filter(Boolean);
  const expires = config.SECURITY_TXT_EXPIRES
    ? new Date(config.SECURITY_TXT_EXPIRES)
    : new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const canonical = config.PUBLIC_BASE_URL
    ? `${new URL(config.PUBLIC_BASE_URL).origin}/.well-known/security.txt`
    : null;
  return [
    ...contacts.map((contact) => `Contact: ${contact}`),
    `Expires: ${expires.toISOString()}`,
    ...(config.SECURITY_POLICY_URL ? [`Policy: ${config.SECURITY_POLICY_URL}`] : []),
    'Preferred-Languages: en',
    ...(canonical ? [`Canonical: ${canonical}`] : []),
    // Partners' own integration questions go to the API reference, not to the security team.
    `# API reference: ${apiBaseUrl(config)}/docs`,
    '',
  ].join('\n');
}
