import { html } from 'ghtml';

/** A message's body as the foundation's mails lay it out: a heading, paragraphs, a table of labelled lines, a footer. */
export function labelledHtml(heading: string, intro: string[], rows: [string, string][], footer: string[]): string {
  return html`<!doctype html>
    <html lang="en">
      <body>
        <h1>${heading}</h1>
        !${intro.map((p) => html`<p>${p}</p>`).join('')}
        <table>
          !${rows
            .map(
              ([label, value]) =>
                html`<tr>
                  <th align="left">${label}</th>
                  <td>${value}</td>
                </tr>`,
            )
            .join('')}
        </table>
        !${footer.map((p) => html`<p><small>${p}</small></p>`).join('')}
      </body>
    </html>`;
}

export const labelledText = (intro: string[], rows: [string, string][], footer: string[]) =>
  [...intro, '', ...rows.map(([label, value]) => `${label}: ${value}`), '', ...footer, ''].join('\n');
