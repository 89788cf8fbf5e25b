/** Asking before an action (a modal dialog) and saying how it went (the result line under the header). */
import { ControlError } from './control-client.js';
import { h } from './dom.js';
import type { Page } from './page.js';

export interface Feedback {
  /**
   * Asks before an action: a modal <dialog> (focus moves in, Escape cancels) with the given fields.
   * Resolves with the form's values, or null when cancelled.
   */
  ask(title: string, text: string, fields?: HTMLElement[]): Promise<FormData | null>;
  /**
   * Shows how an action went: the sentence it gives (`data` as a string), or its error. Anything
   * else reads "<action>: done." (a person gets no raw JSON).
   */
  show(action: string, outcome: { data?: unknown; error?: unknown }): void;
  /** Runs an action (which answers the sentence to show), shows its outcome, then refreshes the page. */
  act(action: string, run: () => Promise<unknown>): Promise<void>;
  /** Shows a line that is not a control API answer (a curl command to copy). */
  say(text: string): void;
}

/** The feedback of `page`; `refresh` redraws the page after an action. */
export function createFeedback(page: Page, refresh: () => Promise<void>): Feedback {
  const { dialog, result, tokenForm } = page;

  function ask(title: string, text: string, fields: HTMLElement[] = []): Promise<FormData | null> {
    const form = h(
      'form',
      { method: 'dialog' },
      h('h2', { id: 'dialog-title' }, title),
      h('p', {}, text),
      ...fields,
      h(
        'div',
        { class: 'dialog-buttons' },
        h('button', { type: 'submit', value: 'cancel', formnovalidate: true }, 'Cancel'),
        h('button', { type: 'submit', value: 'confirm', class: 'primary' }, 'Confirm'),
      ),
    );
    dialog.replaceChildren(form);
    return new Promise((resolve) => {
      dialog.addEventListener(
        'close',
        () => resolve(dialog.returnValue === 'confirm' ? new FormData(form) : null),
        { once: true },
      );
      dialog.returnValue = '';
      dialog.showModal();
    });
  }

  function show(action: string, outcome: { data?: unknown; error?: unknown }) {
    result.className = `result ${outcome.error ? 'error' : 'ok'}`;
    if (outcome.error) {
      const error = outcome.error;
      const detail =
        error instanceof ControlError
          ? `HTTP ${error.status}${error.code === null ? '' : `, error_code ${error.code}`}: ${error.message}`
          : String(error);
      result.textContent = `${action} failed: ${detail}`;
      if (error instanceof ControlError && error.needsToken) tokenForm.hidden = false;
      return;
    }
    result.textContent = typeof outcome.data === 'string' ? outcome.data : `${action}: done.`;
  }

  async function act(action: string, run: () => Promise<unknown>) {
    try {
      show(action, { data: await run() });
    } catch (error) {
      show(action, { error });
    }
    await refresh();
  }

  function say(text: string) {
    result.className = 'result ok';
    result.textContent = text;
  }

  return { ask, show, act, say };
}
