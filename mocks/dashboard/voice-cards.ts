/**
 * The custom voices: a card per voice with its reference recording's player and a Speak box. Cards are
 * kept by key and only their text is updated, so a poll never interrupts playback or typing.
 */
import type { ControlClient } from './control-client.js';
import { h } from './dom.js';
import type { Feedback } from './feedback.js';
import { formatTime } from './format.js';
import type { Voice } from './state-view.js';

interface Card {
  card: HTMLElement;
  meta: HTMLElement;
}

export interface VoiceCards {
  count: HTMLSpanElement;
  list: HTMLDivElement;
  draw(voices: Voice[]): void;
}

export function createVoiceCards(client: ControlClient, feedback: Feedback): VoiceCards {
  const count = h('span', { class: 'count' });
  const list = h('div', { class: 'voices' });
  const cards = new Map<string, Card>();

  function draw(voices: Voice[]) {
    count.textContent = `(${voices.length})`;
    const seen = new Set<string>();
    const shown: HTMLElement[] = [];
    for (const voice of voices) {
      const key = `${voice.organization}\u0000${voice.environment}\u0000${voice.voiceId}\u0000${voice.createdAt}`;
      seen.add(key);
      let kept = cards.get(key);
      if (!kept) {
        kept = voiceCard(voice, cards.size, client, feedback);
        cards.set(key, kept);
      }
      kept.meta.textContent = `${voice.organization} / ${voice.environment} · made ${formatTime(voice.createdAt)} · ${
        voice.sourceUpload === null ? 'from a URL' : `from upload ${voice.sourceUpload}`
      } · account ${voice.account}`;
      shown.push(kept.card);
    }
    for (const key of [...cards.keys()]) if (!seen.has(key)) cards.delete(key);
    if (shown.length === 0) shown.push(h('p', { class: 'empty' }, 'No custom voices yet.'));
    const current = [...list.children];
    if (current.length !== shown.length || current.some((c, i) => c !== shown[i]))
      list.replaceChildren(...shown);
  }

  return { count, list, draw };
}

/** A voice's card; `n` makes its speak box's id unique. */
function voiceCard(voice: Voice, n: number, client: ControlClient, feedback: Feedback): Card {
  const id = voice.voiceId;
  const meta = h('p', { class: 'meta' });
  const card = h(
    'article',
    { class: 'voice', 'aria-label': `Voice ${id}` },
    h('h4', {}, id),
    meta,
    h(
      'div',
      { class: 'players' },
      h(
        'figure',
        {},
        h('figcaption', {}, 'Reference recording'),
        h('audio', {
          controls: true,
          // Nothing loads before a play: with 5,000 voices, metadata preloads asked the mock for every
          // recording at once (~600 MB) and list answers waited behind them.
          preload: 'none',
          src: voice.voiceUrl,
          class: 'reference',
          'aria-label': `Reference recording of ${id}`,
        }),
      ),
      h('figure', {}, h('figcaption', {}, 'Speak'), ...speakBox(voice, n, client, feedback)),
    ),
  );
  return { card, meta };
}

/** A sentence to speak with the voice (POST /__mock/speak), and the player of what it said. */
function speakBox(voice: Voice, n: number, client: ControlClient, { show }: Feedback) {
  const id = voice.voiceId;
  const text = h('input', {
    type: 'text',
    id: `speak-${n}`,
    value: 'Hello! This is my own voice.',
    'aria-label': `Sentence to speak with ${id}`,
  });
  const spoken = h('audio', { controls: true, class: 'spoken', hidden: true });
  const speakButton = h('button', { type: 'submit', 'aria-label': `Speak with ${id}` }, 'Speak');
  const form = h('form', { class: 'speak' }, text, speakButton);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    speakButton.disabled = true;
    try {
      const response = await client.raw('/__mock/speak', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          organization: voice.organization,
          environment: voice.environment,
          voiceId: id,
          text: text.value,
        }),
      });
      const audio = await response.blob();
      if (spoken.src) URL.revokeObjectURL(spoken.src);
      spoken.src = URL.createObjectURL(audio);
      spoken.hidden = false;
      show(`Speak with ${id}`, { data: { type: audio.type, bytes: audio.size } });
      await spoken.play().catch(() => {});
    } catch (error) {
      show(`Speak with ${id}`, { error });
    } finally {
      speakButton.disabled = false;
    }
  });
  return [form, spoken];
}
