import {
  correctMandates,
  donationsOfCurrentEmail,
  updateDonationDonor,
} from '../../infrastructure/repositories/privacy-correction.js';
import { insertDonorCorrection } from '../../infrastructure/repositories/receipts.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { queueReceiptMail, reissue, voidAndNotify } from '../receipts/revise.js';
import { cleanEmail, cleanText } from './input.js';

export interface PersonCorrection {
  email: string;
  newEmail?: string;
  firstName?: string;
  lastName?: string;
  businessName?: string;
  reason: string;
}

const optional = (value: string | undefined, what: string, max: number) =>
  value === undefined ? undefined : cleanText(value, what, max);

/**
 * Corrects a person's details on every record that holds them (APP 13, docs/privacy.md "Correcting a donor's
 * details"): each donation of the address (and a correction kept for it, so later receipts name them so), each receipt
 * in force voided and reissued naming the corrected donor and sent to the corrected address (the path of
 * `receipts correct`: docs/receipts.md, "Void and reissue"), and the mandates of the address. Messages already sent
 * and end-of-year statements already issued stay as they were: they were right when sent. One transaction; audited
 * with counts and the reason, never the details.
 */
export async function correctPerson(ctx: OperatorContext, change: PersonCorrection) {
  const key = cleanEmail(change.email).toLowerCase();
  const newEmail = change.newEmail === undefined ? undefined : cleanEmail(change.newEmail);
  const firstName = optional(change.firstName, 'the first name', 100);
  const lastName = optional(change.lastName, 'the last name', 100);
  const businessName = change.businessName === undefined ? undefined : change.businessName.trim() || null;
  if (businessName) cleanText(businessName, 'the business name', 200);
  const reason = cleanText(change.reason, 'the reason', 500);
  if ([newEmail, firstName, lastName, businessName].every((v) => v === undefined))
    throw new InvalidInputError('Give what to correct: --new-email, --first-name, --last-name or --business-name.');

  return inTransaction(ctx, async (tx) => {
    const donors = await donationsOfCurrentEmail(tx.db, key);
    const mandates = await correctMandates(tx.db, key, { firstName, lastName, email: newEmail });
    if (donors.length === 0 && mandates === 0)
      throw new NotFoundError('Nothing identified is held about that address.');
    const reissued: string[] = [];
    for (const donor of donors) {
      const corrected = {
        ...donor,
        firstName: firstName ?? donor.firstName,
        lastName: lastName ?? donor.lastName,
        businessName: businessName === undefined ? donor.businessName : businessName,
        email: newEmail ?? donor.email,
      };
      await insertDonorCorrection(tx.db, {
        donation_id: donor.donationId,
        first_name: corrected.firstName,
        last_name: corrected.lastName,
        business_name: corrected.businessName,
        email: corrected.email,
        reason,
        corrected_by: tx.operator,
      });
      await updateDonationDonor(tx.db, corrected);
      // No void notice to the old address: it may be someone else's (as `receipts correct`).
      const voided = await voidAndNotify(tx.db, donor.donationId, {
        reason: `donor details corrected: ${reason}`,
        by: tx.operator,
        notice: null,
      });
      if (!voided) continue;
      const replacement = await reissue(tx.db, voided, {
        donor: {
          name: `${corrected.firstName} ${corrected.lastName}`,
          businessName: corrected.businessName,
          email: corrected.email,
        },
        reason: 'donor details corrected',
      });
      await queueReceiptMail(tx.db, replacement);
      reissued.push(replacement.number);
    }
    const result = { donations: donors.length, receiptsReissued: reissued.length, mandates };
    await audit(tx, AuditActions.privacyCorrect, null, { ...result, reissued, reason });
    return { ...result, reissued };
  });
}
