import { Type } from '@sinclair/typebox';

/** The notices partners' contacts are sent by e-mail (docs/partners.md, "Notices"), through the mail outbox. */
export const PartnerNoticeSettings = {
  CREDENTIAL_ROTATION_PERIOD_DAYS: Type.Integer({
    minimum: 31,
    maximum: 3660,
    default: 365,
    description:
      'A credential is due for its scheduled rotation this long after it was issued (contract section 5.6: a year); ' +
      'its technical contacts are told 30 days before.',
  }),
  PARTNER_NOTICE_INTERVAL_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 86400,
    default: 3600,
    description:
      'How often one instance looks for scheduled notices due: rotations due in 30 days, overlaps ending in 3 days ' +
      'or over, and the day before’s remittance exceptions (each sent once).',
  }),
};
