/**
 * The header's actions: Reset, Snapshot, Restore, Advance clock, Reset quota, and Populate on a mock
 * that has it. Each asks first when it changes or replaces state, and says how it went.
 */
import type { ControlClient } from './control-client.js';
import { button, field, h } from './dom.js';
import type { Feedback } from './feedback.js';
import { formatBytes } from './format.js';

export interface ActionsBar {
  toolbar: HTMLDivElement;
  /** The hidden file input Restore opens (main.ts places it in the page). */
  restoreInput: HTMLInputElement;
  /** Adds Populate when the mock's control index lists it. */
  offerPopulate(): Promise<void>;
}

export function createActionsBar(client: ControlClient, feedback: Feedback): ActionsBar {
  const toolbar = h('div', { class: 'actions', role: 'toolbar', 'aria-label': 'Actions' });
  const restoreInput = h('input', {
    type: 'file',
    accept: 'application/json,.json',
    hidden: true,
    'aria-label': 'Snapshot file to restore',
  });
  toolbar.append(
    resetButton(client, feedback),
    snapshotButton(client, feedback),
    button('Restore', () => restoreInput.click(), 'POST /__mock/restore with a snapshot file'),
    advanceClockButton(client, feedback),
    button(
      'Reset quota',
      () =>
        void feedback.act('Reset quota', async () => {
          await client.post('/__mock/rate-limit/reset');
          return 'Every user has a fresh upload window.';
        }),
      'POST /__mock/rate-limit/reset: a fresh upload window for every user',
    ),
  );
  restoreInput.addEventListener('change', () => restoreFrom(restoreInput, client, feedback));

  /** Populate appears only on a mock whose control index lists it. */
  async function offerPopulate() {
    try {
      const index = await client.json<{ operations: { method: string; path: string }[] }>('/__mock/');
      if (!index.operations.some((op) => op.path === '/__mock/populate')) return;
      toolbar.append(populateButton(client, feedback));
    } catch {
      // shown by the poll's status
    }
  }

  return { toolbar, restoreInput, offerPopulate };
}

function resetButton(client: ControlClient, { ask, act }: Feedback) {
  return button(
    'Reset',
    async () => {
      const ok = await ask(
        'Reset the mock?',
        'Uploads, custom voices, quotas, the ledger, the request log and the clock go back to how the mock started.',
      );
      if (ok)
        await act('Reset', async () => {
          await client.post('/__mock/reset');
          return 'The mock is back to how it started: no uploads, no custom voices, fresh quotas, an empty log.';
        });
    },
    'POST /__mock/reset',
  );
}

function snapshotButton(client: ControlClient, { act }: Feedback) {
  return button(
    'Snapshot',
    () =>
      void act('Snapshot', async () => {
        const response = await client.raw('/__mock/snapshot');
        const blob = await response.blob();
        const name = `voice-kit-snapshot-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
        const link = h('a', { href: URL.createObjectURL(blob), download: name });
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        return `Saved the snapshot as ${name} (${formatBytes(blob.size)}).`;
      }),
    'GET /__mock/snapshot, saved as a file',
  );
}

/** Restores the snapshot file just chosen in `input`, after asking. */
async function restoreFrom(input: HTMLInputElement, client: ControlClient, { ask, act }: Feedback) {
  const file = input.files?.[0];
  input.value = '';
  if (!file) return;
  const ok = await ask('Restore this snapshot?', `The mock's state is replaced by ${file.name}.`);
  if (!ok) return;
  await act('Restore', async () => {
    await client.json('/__mock/restore', {
      method: 'POST',
      body: await file.text(),
      headers: { 'Content-Type': 'application/json' },
    });
    return `Restored the snapshot ${file.name}.`;
  });
}

function advanceClockButton(client: ControlClient, { ask, act }: Feedback) {
  return button(
    'Advance clock',
    async () => {
      const values = await ask('Advance the clock', "Moves the mock's clock forward.", [
        field('seconds', 'Seconds', '3600'),
      ]);
      if (values)
        await act('Advance clock', async () => {
          const seconds = Number(values.get('seconds'));
          const clock = await client.post<{ iso: string }>('/__mock/clock/advance', { seconds });
          return `Moved the clock forward ${seconds} s: it now reads ${clock.iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}.`;
        });
    },
    'POST /__mock/clock/advance',
  );
}

function populateButton(client: ControlClient, { ask, act }: Feedback) {
  return button(
    'Populate',
    async () => {
      const values = await ask('Populate the mock', 'Adds custom voices made from generated recordings.', [
        field('voices', 'Voices', '5'),
        field('seed', 'Seed', '1'),
      ]);
      if (values)
        await act('Populate', async () => {
          const made = await client.post<{ created: number }>('/__mock/populate', {
            voices: Number(values.get('voices')),
            seed: Number(values.get('seed')),
          });
          return `Added ${made.created} populated ${made.created === 1 ? 'voice' : 'voices'}.`;
        });
    },
    'POST /__mock/populate',
  );
}
