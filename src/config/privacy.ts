import { Type } from '@sinclair/typebox';
import type { RetentionPolicy } from '../domain/privacy.js';

/** How long personal information is kept before it is de-identified (docs/privacy.md, "Retention"). */
export const PrivacySettings = {
  DONOR_DATA_RETENTION_YEARS: Type.Integer({
    minimum: 6,
    maximum: 100,
    default: 7,
    description:
      'Years donor details (names, e-mail, mobile, address, business name) are kept on donations, mandates, ' +
      'receipts and mail recipients before they are de-identified: the five years tax records need, the financial ' +
      'year and a margin. A receipt inside its five years is never de-identified, whatever this says.',
  }),
  MAIL_BODY_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3660,
    default: 90,
    description: 'Days the rendered bodies of sent messages are kept; a receipt’s PDF renders again from the register.',
  }),
  PRIVACY_INTERVAL_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 604800,
    default: 86400,
    description: 'How often one instance runs the de-identification job (a job of the `privacy-deidentify` queue).',
  }),
  PRIVACY_BATCH_SIZE: Type.Integer({
    minimum: 10,
    maximum: 50000,
    default: 5000,
    description: 'Rows de-identified per transaction: short row locks, and the progress a kill can lose at most.',
  }),
};

/** The retention the settings ask for (docs/privacy.md, "Retention"). */
export function retentionPolicy(config: {
  DONOR_DATA_RETENTION_YEARS: number;
  MAIL_BODY_RETENTION_DAYS: number;
  FOUNDATION_TIME_ZONE: string;
}): RetentionPolicy {
  return {
    donorDataYears: config.DONOR_DATA_RETENTION_YEARS,
    mailBodyDays: config.MAIL_BODY_RETENTION_DAYS,
    timeZone: config.FOUNDATION_TIME_ZONE,
  };
}
