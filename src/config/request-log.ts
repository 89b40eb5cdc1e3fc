import { Type } from '@sinclair/typebox';

/**
 * The partner request log (docs/decisions/0087-request-log-one-table-pruned-in-chunks.md,
 * docs/decisions/0088-request-log-masked-and-buffered.md): what partners' engineers see of their own calls.
 */
export const RequestLogSettings = {
  PARTNER_REQUEST_LOG: Type.Boolean({
    default: true,
    description: 'Keep a log of every partner API request (masked bodies) for the partner portal and support.',
  }),
  PARTNER_REQUEST_LOG_SUCCESSFUL_READS: Type.Boolean({
    default: false,
    description:
      'Give every successful GET its own row in the log as well (every request is counted per minute either way; ' +
      'failures and changes always have their rows). Off: at read-heavy rates those rows cost more than the reads.',
  }),
  PARTNER_REQUEST_LOG_DAYS: Type.Integer({
    minimum: 1,
    maximum: 90,
    default: 14,
    description: 'Days a partner request stays in the log before the `partner-request-log` job prunes it.',
  }),
  PARTNER_REQUEST_LOG_BUFFER: Type.Integer({
    minimum: 100,
    maximum: 1_000_000,
    default: 10_000,
    description:
      'Requests an instance holds before writing them (in batches, every 250 ms or sooner); past it, entries are ' +
      'dropped and counted (partner_request_log_dropped_total), never waited for.',
  }),
  PARTNER_REQUEST_LOG_BODY_BYTES: Type.Integer({
    minimum: 256,
    maximum: 1_048_576,
    default: 8192,
    description: 'Characters kept of each masked request and response body; the rest is cut and marked.',
  }),
};
