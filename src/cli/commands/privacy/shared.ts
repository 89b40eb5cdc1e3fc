/** What the subcommands of this group share: how an erasure request is shown. */
import type { ErasureView } from '../../../services/privacy/erasure.js';
import { fields, tableOr } from '../../output.js';

export function erasureText(e: ErasureView, headline: string): string {
  return [
    headline,
    fields([
      ['Request', e.id],
      ['Status', e.status],
      ['Asked by', e.requestedBy],
      ['Decided by', e.decidedBy],
      [e.status === 'pending' ? 'Would erase' : 'Erased', describeCounts(e.erased)],
    ]),
    tableOr(
      e.kept,
      [
        { header: 'Kept', value: (k) => `${k.kind} ${k.ref}` },
        { header: 'Until', value: (k) => k.until },
        { header: 'Why', value: (k) => k.why },
      ],
      'Nothing is kept: no law requires any of it.',
    ),
  ].join('\n');
}

const describeCounts = (c: ErasureView['erased']) =>
  `${c.donations} donation(s) with their receipts, ${c.mandates} mandate(s), ${c.statements} statement(s), ` +
  `${c.mail} message(s)`;
