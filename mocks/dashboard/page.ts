/**
 * The page's frame, the parts every panel may touch: the header's clock and live status, the token
 * form, the line that says how an action went, and the dialog that asks before one. Made once by
 * main.ts and passed to whoever needs a part of it.
 */
import { h } from './dom.js';

export interface Page {
  clock: HTMLSpanElement;
  live: HTMLSpanElement;
  tokenForm: HTMLFormElement;
  result: HTMLOutputElement;
  dialog: HTMLDialogElement;
}

/** The frame; a token typed into its form goes to `onToken`. */
export function createPage(onToken: (token: string) => void): Page {
  const tokenInput = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true });
  const tokenForm = h(
    'form',
    { class: 'token', hidden: true, 'aria-label': 'Control token' },
    h(
      'p',
      {},
      'This mock’s control API asks for a token (X-Mock-Control-Token): the one its start line printed, or the --control-token it was given. The page keeps it in this tab only.',
    ),
    h('label', { for: 'token' }, 'Control token'),
    tokenInput,
    h('button', { type: 'submit' }, 'Use token'),
  );
  tokenForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = tokenInput.value.trim();
    tokenInput.value = '';
    tokenForm.hidden = true;
    onToken(token);
  });
  return {
    clock: h('span', { class: 'clock', title: "The mock's clock (UTC)" }, 'clock …'),
    live: h('span', { class: 'live', role: 'status' }, 'connecting…'),
    tokenForm,
    result: h('output', { class: 'result', 'aria-live': 'polite' }),
    dialog: h('dialog', { 'aria-labelledby': 'dialog-title' }),
  };
}
