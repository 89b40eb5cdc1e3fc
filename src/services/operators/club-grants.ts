import { clubByMember, grantsOfClub } from '../../infrastructure/repositories/grant-lookups.js';
import type { OperatorContext } from './context.js';
import { NotFoundError } from './operator-errors.js';

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

/** A club's grants, newest first: each round's line, paid or held, with its advice and RCTI. */
export async function listClubGrants(ctx: OperatorContext, memberNumber: string) {
  const club = await clubByMember(ctx.db, memberNumber.trim());
  if (!club) throw new NotFoundError(`No fundraiser with member number ${JSON.stringify(memberNumber)}.`);
  const rows = await grantsOfClub(ctx.db, club.id, 500);
  return {
    accountId: club.id,
    name: club.name,
    memberNumber: club.member_number,
    gstRegistered: club.gst_registered,
    grants: rows.map((g) => ({
      round: g.round_number,
      status: g.status,
      holdReason: g.hold_reason,
      amountCents: Number(g.amount_cents),
      lodgementReference: g.lodgement_reference,
      advisedAt: iso(g.advised_at),
      rctiNumber: g.rcti_number,
    })),
  };
}
