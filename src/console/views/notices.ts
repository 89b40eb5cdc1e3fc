import { html } from 'ghtml';
import { deliveryLines, type NoticeView } from '../../services/operators/partner-notices.js';
import { dataTable } from './components.js';

/** The notices of a partner's page: what its contacts were told, to whom, when, and delivered or why not. */
export function noticesSection(notices: NoticeView[]): string {
  return dataTable(
    notices,
    [
      { header: 'When', text: (n) => n.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z') },
      { header: 'Notice', text: (n) => n.kind },
      { header: 'About', text: (n) => n.subject },
      {
        header: 'To',
        // One line per contact: each line is escaped, only the breaks between them are markup.
        cell: (n) =>
          deliveryLines(n)
            .map((line) => html`${line}`)
            .join('<br />'),
      },
    ],
    {
      caption: 'Notices sent (latest 50)',
      empty: 'No notice sent yet: rotations, remittance exceptions, disabled webhooks and deprecations are told here.',
    },
  );
}
