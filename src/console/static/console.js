// Progressive enhancement only: every page works without this script.
// - a button with data-confirm asks before its form is sent (suspend, revoke);
// - a read-only field with data-copy gets a "Copy" button (the secret shown once).
document.addEventListener('submit', (event) => {
  const button = event.submitter;
  const question = button && button.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

for (const input of document.querySelectorAll('input[data-copy]')) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Copy';
  button.className = 'copy';
  button.setAttribute('aria-label', 'Copy ' + (input.labels[0] ? input.labels[0].textContent : 'value'));
  button.addEventListener('click', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
  });
  input.after(button);
}
