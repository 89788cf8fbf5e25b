/**
 * The custom voices: a card per voice with its reference recording's player and a Speak box. Cards are
 * kept by key and only their text is updated, so a poll never interrupts playback or typing.
 */
import type { ControlClient } from './control-client.js';
import { h } from './dom.js';
import type { Feedback } from './feedback.js';
import { formatBytes, formatTime } from './format.js';
import type { Voice } from './state-view.js';

interface Card {
  card: HTMLElement;
  meta: HTMLElement;
}

export interface VoiceCards {
  count: HTMLSpanElement;
  /** The filter box, shown once there are more voices than fit the box at a glance. */
  filter: HTMLElement;
  list: HTMLDivElement;
  draw(voices: Voice[]): void;
}

/** Past this many voices the list gets a filter (the box shows about three cards). */
const filterFrom = 6;

/** A card is kept per voice (a voice saved again under its id after a delete is a new one). */
const cardKey = (v: Voice) => `${v.organization}\u0000${v.environment}\u0000${v.voiceId}\u0000${v.createdAt}`;

/** Where a voice's recording came from, as a person reads it. */
function sourceText(voice: Voice): string {
  if (voice.source === 'populated') return 'populated';
  if (voice.sourceUpload !== null) return `from upload ${voice.sourceUpload}`;
  return 'from a URL';
}

export function createVoiceCards(client: ControlClient, feedback: Feedback): VoiceCards {
  const count = h('span', { class: 'count' });
  const list = h('div', { class: 'voices' });
  const input = h('input', { id: 'voice-filter', type: 'search', placeholder: 'voice_id, organization…' });
  const filter = h(
    'p',
    { class: 'filters', hidden: true },
    h('label', { for: 'voice-filter' }, 'Filter voices'),
    input,
  );
  const cards = new Map<string, Card>();
  let last: Voice[] = [];
  input.addEventListener('input', () => draw(last));

  function draw(voices: Voice[]) {
    last = voices;
    filter.hidden = voices.length <= filterFrom;
    const wanted = filter.hidden ? '' : input.value.trim().toLowerCase();
    const kept = wanted
      ? voices.filter((v) => `${v.voiceId} ${v.organization} ${v.environment}`.toLowerCase().includes(wanted))
      : voices;
    count.textContent =
      kept.length === voices.length ? `(${voices.length})` : `(${kept.length} of ${voices.length})`;
    const shown: HTMLElement[] = [];
    for (const voice of kept) {
      const key = cardKey(voice);
      let card = cards.get(key);
      if (!card) {
        card = voiceCard(voice, cards.size, client, feedback);
        cards.set(key, card);
      }
      card.meta.textContent = `${voice.organization} / ${voice.environment} · made ${formatTime(voice.createdAt)} · ${sourceText(voice)} · account ${voice.account}`;
      shown.push(card.card);
    }
    // Cards filtered out stay kept (a player keeps its place), those of voices gone are dropped.
    const present = new Set(voices.map(cardKey));
    for (const key of [...cards.keys()]) if (!present.has(key)) cards.delete(key);
    if (shown.length === 0)
      shown.push(h('p', { class: 'empty' }, voices.length ? 'No voice matches.' : 'No custom voices yet.'));
    const current = [...list.children];
    if (current.length !== shown.length || current.some((c, i) => c !== shown[i]))
      list.replaceChildren(...shown);
  }

  return { count, filter, list, draw };
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
      show(`Speak with ${id}`, {
        data: `Spoke with ${id}: ${formatBytes(audio.size)} of ${audio.type || 'audio'}, playing below.`,
      });
      await spoken.play().catch(() => {});
    } catch (error) {
      show(`Speak with ${id}`, { error });
    } finally {
      speakButton.disabled = false;
    }
  });
  return [form, spoken];
}
