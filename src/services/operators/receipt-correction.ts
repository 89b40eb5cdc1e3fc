import { insertDonorCorrection } from '../../infrastructure/repositories/receipts.js';
import { queueReceiptMail, reissue, voidAndNotify } from '../receipts/revise.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError } from './operator-errors.js';
import { requireReceipt, toView, type ReceiptView } from './receipts.js';

/** The donor as a corrected receipt names them. */
export interface DonorCorrection {
  firstName: string;
  lastName: string;
  businessName?: string;
  email: string;
  reason: string;
}

const CONTROL = /\p{Cc}/u;

function clean(value: string | undefined, what: string, max: number, required = true): string | null {
  const text = (value ?? '').trim();
  if (text === '') {
    if (required) throw new InvalidInputError(`Give ${what}.`);
    return null;
  }
  if (text.length > max || CONTROL.test(text))
    throw new InvalidInputError(
      `${what[0]!.toUpperCase()}${what.slice(1)} must be one line of at most ${max} characters.`,
    );
  return text;
}

/**
 * Corrects the donor a receipt names (a misspelt name, a wrong address): a receipt is never edited, so the one in
 * force is voided and another issued in its place for the same gift and amount, naming the corrected donor and the
 * receipt it replaces, and sent to the corrected address (docs/receipts.md, "Void and reissue"). The correction is
 * kept for the donation, so a later reissue (a partial reversal) names the corrected donor too. No void notice goes
 * to the old address: it may be someone else's. Audited with the reason, never the details.
 */
export async function correctDonor(
  ctx: OperatorContext,
  number: string,
  correction: DonorCorrection,
): Promise<ReceiptView> {
  const firstName = clean(correction.firstName, 'the first name', 100)!;
  const lastName = clean(correction.lastName, 'the last name', 100)!;
  const businessName = clean(correction.businessName, 'the business name', 200, false);
  const email = clean(correction.email, 'the e-mail address', 320)!;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    throw new InvalidInputError(`${JSON.stringify(email)} is not an e-mail address.`);
  const reason = clean(correction.reason, 'the reason', 500)!;
  return inTransaction(ctx, async (tx) => {
    const row = await requireReceipt(tx, number);
    if (row.voided_at !== null)
      throw new ConflictError(`Receipt ${row.number} is void: correct the receipt in force of its donation.`);
    await insertDonorCorrection(tx.db, {
      donation_id: row.donation_id,
      first_name: firstName,
      last_name: lastName,
      business_name: businessName,
      email,
      reason,
      corrected_by: tx.operator,
    });
    const voided = await voidAndNotify(tx.db, row.donation_id, {
      reason: `donor details corrected: ${reason}`,
      by: tx.operator,
      notice: null,
    });
    if (voided?.id !== row.id) throw new ConflictError(`Receipt ${row.number} is no longer in force.`);
    const replacement = await reissue(tx.db, voided, {
      donor: { name: `${firstName} ${lastName}`, businessName, email },
      reason: 'donor details corrected',
    });
    await queueReceiptMail(tx.db, replacement);
    await audit(tx, AuditActions.receiptCorrect, row.number, {
      donationReferenceId: row.donation_reference_id,
      replacedBy: replacement.number,
      reason,
    });
    return toView(tx, replacement);
  });
}
