/** How `grants advice` shows an advice and the advices waiting, for people. */
import type { AdviceView, waitingAdvices } from '../../../services/operators/grant-advices.js';
import { fields, formatAud, tableOr } from '../../output.js';

export const waitingText = (waiting: Awaited<ReturnType<typeof waitingAdvices>>) =>
  tableOr(
    waiting,
    [
      { header: 'Grant', value: (w) => w.lodgementReference },
      { header: 'Round', value: (w) => w.round },
      { header: 'Club', value: (w) => `${w.club} (${w.memberNumber})` },
      { header: 'AUD', value: (w) => formatAud(w.amountCents) },
    ],
    'No advice is waiting for a finance contact.',
  );

export const adviceText = (view: AdviceView) =>
  [
    fields([
      ['Grant', view.lodgementReference],
      ['Club', `${view.club} (${view.memberNumber})`],
      ['Round', view.round],
      ['Amount (AUD)', formatAud(view.amountCents)],
      ['Status', view.status],
      ['Advised', view.advisedAt ?? 'not yet'],
      ['RCTI', view.rctiNumber],
      ['Finance contacts', view.financeContacts.join(', ') || 'none'],
    ]),
    tableOr(
      view.messages,
      [
        { header: 'Written', value: (m) => m.createdAt },
        { header: 'Status', value: (m) => m.status },
        { header: 'Attempts', value: (m) => m.attempts },
        { header: 'Why not sent', value: (m) => m.lastError },
      ],
      'No advice message.',
    ),
  ].join('\n');
