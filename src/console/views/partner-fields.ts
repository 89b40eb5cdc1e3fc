import { html } from 'ghtml';

/** The channel checkboxes and quota fields of the partner forms (new partner, a partner's changes). */
export function channelBoxes(all: string[], checked: string[]): string {
  return html`<fieldset>
    <legend>Channels</legend>
    !${all.map(
      (name, i) =>
        html`<label class="check"
          ><input
            type="checkbox"
            name="channels"
            value="${name}"
            id="channel-${i}"
            !${checked.includes(name) ? ' checked' : ''}
          />
          ${name}</label
        >`,
    )}
  </fieldset>`;
}

export function quotaFields(limit: number, windowSeconds: number): string {
  return html`<p class="pair">
    <span
      ><label for="quotaLimit">Quota: requests</label
      ><input id="quotaLimit" name="quotaLimit" type="number" min="1" step="1" value="${limit}" required
    /></span>
    <span
      ><label for="quotaWindowSeconds">per seconds</label
      ><input
        id="quotaWindowSeconds"
        name="quotaWindowSeconds"
        type="number"
        min="1"
        step="1"
        value="${windowSeconds}"
        required
    /></span>
  </p>`;
}
