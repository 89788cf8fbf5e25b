/**
 * The State half of the page: custom voices (voice-cards.ts), uploads with their analysis, upload
 * quotas and the billing ledger, and the header's clock. Each part is redrawn only when its JSON
 * changed, so a quiet mock costs the page nothing.
 */
import type { ControlClient } from './control-client.js';
import { button, h, section, table } from './dom.js';
import type { Feedback } from './feedback.js';
import { formatBytes } from './format.js';
import type { StateView, Upload } from './state-view.js';
import { createVoiceCards } from './voice-cards.js';

export interface StatePanels {
  element: HTMLElement;
  draw(view: StateView): void;
}

/** The panels; `clock` is the header's, drawn with them. */
export function createStatePanels(
  client: ControlClient,
  feedback: Feedback,
  clock: HTMLElement,
): StatePanels {
  const voices = createVoiceCards(client, feedback);
  const uploadsCount = h('span', { class: 'count' });
  const uploadsBody = h('tbody');
  const quotasBody = h('tbody');
  const ledgerBody = h('tbody');
  const element = h(
    'section',
    { class: 'state', 'aria-labelledby': 'state-title' },
    h('h2', { id: 'state-title' }, 'State'),
    section('Custom voices', voices.count, voices.filter, voices.list),
    section(
      'Uploads',
      uploadsCount,
      h('div', { class: 'scroll' }, table(['Object key', 'File', 'Size', 'Space', 'Analysis'], uploadsBody)),
    ),
    h(
      'div',
      { class: 'pair' },
      section('Upload quotas', null, table(['User', 'Uploads left this hour'], quotasBody)),
      section(
        'Billing ledger',
        null,
        table(['Account', 'Free clones left', 'Charged', 'Characters'], ledgerBody),
      ),
    ),
  );

  const drawn = { voices: '', uploads: '', rest: '' };
  function draw(view: StateView) {
    const points = view.profile?.points ?? [];
    const calibrated = view.profile
      ? ` · profile: ${points.length} point${points.length === 1 ? '' : 's'}`
      : '';
    clock.textContent = `clock ${view.clock.iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}${calibrated}`;
    clock.title = view.profile
      ? `The mock's clock (UTC). It answers as a calibration profile says on: ${points.map((p) => p.point).join(', ')}`
      : "The mock's clock (UTC)";
    const voicesJson = JSON.stringify(view.voices.map(({ voiceUrl: _, ...v }) => v));
    if (voicesJson !== drawn.voices) {
      drawn.voices = voicesJson;
      voices.draw(view.voices);
    }
    const uploads = JSON.stringify(view.uploads);
    if (uploads !== drawn.uploads) {
      drawn.uploads = uploads;
      uploadsCount.textContent = `(${view.uploads.length})`;
      uploadsBody.replaceChildren(...uploadRows(view.uploads, client, feedback));
    }
    const restJson = JSON.stringify([view.quotas, view.accounts]);
    if (restJson !== drawn.rest) {
      drawn.rest = restJson;
      quotasBody.replaceChildren(...quotaRows(view));
      ledgerBody.replaceChildren(...ledgerRows(view));
    }
  }

  return { element, draw };
}

/** An upload's row says what its analysis found, or offers to run it. */
function uploadRows(uploads: Upload[], client: ControlClient, { act }: Feedback): HTMLElement[] {
  const rows = uploads.map((upload) => {
    const analysis = upload.analysis;
    const verdict = analysis
      ? h(
          'span',
          {
            class: analysis.verdict === 'accepted' ? 'verdict ok' : 'verdict bad',
            title: analysis.reason ?? '',
          },
          `${analysis.verdict} · ${analysis.container}${analysis.codec ? `/${analysis.codec}` : ''} · ${
            analysis.durationSeconds === null ? '?' : `${analysis.durationSeconds.toFixed(1)} s`
          }`,
        )
      : button(
          'Analyse',
          () =>
            void act(`Analyse ${upload.fileName}`, async () => {
              const found = await client.post<{ verdict: string; container: string }>(
                '/__mock/uploads/analyze',
                { objectKey: upload.objectKey },
              );
              return `Analysed ${upload.fileName}: ${found.verdict} (${found.container}).`;
            }),
          'POST /__mock/uploads/analyze',
        );
    return h(
      'tr',
      {},
      h('td', { class: 'mono' }, upload.objectKey),
      h('td', {}, upload.fileName),
      h('td', { class: 'num' }, formatBytes(upload.size)),
      h('td', {}, `${upload.organization} / ${upload.project} / ${upload.environment}`),
      h('td', {}, verdict),
    );
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No uploads yet.')));
  return rows;
}

const quotaRows = (view: StateView) =>
  view.quotas.map((q) =>
    h('tr', {}, h('td', {}, q.user), h('td', { class: 'num' }, `${q.uploadsLeft} of ${q.uploadsPerHour}`)),
  );

const ledgerRows = (view: StateView) =>
  view.accounts.map((a) =>
    h(
      'tr',
      {},
      h('td', {}, a.account),
      h('td', { class: 'num' }, `${a.freeCloneUsesLeft} of ${a.freeCloneUsesPerAccount}`),
      h(
        'td',
        { class: 'num', title: a.chargedCreations.map((c) => c.voice_id).join(', ') },
        String(a.chargedCreations.length),
      ),
      h('td', { class: 'num' }, String(a.synthesizedCharacters)),
    ),
  );
