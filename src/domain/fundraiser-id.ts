/**
 * Fundraiser ids are either a member number or a CRM account id. CRM ids follow the 15/18-character convention:
 * the 18-character form is the 15-character id plus a case-checksum suffix, so both name the same account.
 */
export function crmIdPrefix(id: string): string | null {
  return id.length === 15 || id.length === 18 ? id.slice(0, 15) : null;
}
