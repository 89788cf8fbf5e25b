import type { SynthesisRequest, VoiceProfile } from '../../../audio/types.js';
import type { AudioFormat } from '../../../openapi/contract.js';
import type { SynthesisRequest as SynthesisRequestBody } from '../../../openapi/generated/voice-service.js';
import { BytesAnswer, dropped, StreamAnswer } from '../answer/answer.js';
import { completeAudio } from '../answer/complete-audio.js';
import { type Failure, fail, quoted } from '../answer/envelope.js';
import { audioChunks } from '../answer/synthesis-body.js';
import type { Operation, OperationContext } from '../context.js';
import type { CompleteAudio } from '../state/complete-audio-cache.js';

/** The synthesis request body of §2.4, after the OpenAPI validation (the type generated from the YAML). */
type SynthesisBody = SynthesisRequestBody;

/** A surrogate pair: one code point in two UTF-16 units. */
const surrogatePair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/**
 * The length of a text in code points, as `[...text].length` counts it (a lone surrogate is one), without
 * making an array of the whole text: a 5,000-character request counted twice cost ~0.1 ms before its
 * first audio byte. Most texts have no surrogate pair, which the regular expression tells at once (a
 * text of Latin-1 characters can hold none: ~0.03 µs for 5,000 characters, against ~8 µs for the loop
 * below; a CJK text ~5 µs); the loop counts the pairs of the others.
 */
function codePoints(text: string): number {
  if (!surrogatePair.test(text)) return text.length;
  let count = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      count--;
      i++;
    }
  }
  return count;
}

/** A voice the caller may synthesize with: a system voice, or a custom voice of its organization and environment. */
function findVoice({ deps, caller }: OperationContext, id: string): VoiceProfile | undefined {
  return (
    deps.audio.systemVoices.find((v) => v.id === id) ?? deps.state.voices.find(caller.voiceSpace, id)?.profile
  );
}

function checkOption(
  name: string,
  value: string | undefined,
  allowed: readonly string[],
): Failure | undefined {
  if (value === undefined || allowed.includes(value)) return undefined;
  return fail(
    'unsupportedOption',
    `${name} ${quoted(value)} is not enabled; enabled are ${allowed.join(', ')}`,
  );
}

/** The checks the schema cannot express (configurable lists and limits, voices that exist). */
function check(
  context: OperationContext,
  body: SynthesisBody,
): Failure | { voice: VoiceProfile; format: AudioFormat } {
  const { config } = context.deps;
  if (!context.caller.capabilities.tts)
    return fail('missingApiKey', 'this API key is not permitted to use Text-to-Speech');
  const length = codePoints(body.generate_text);
  if (length === 0) return fail('textMissing', 'generate_text must not be empty');
  // Whitespace alone says nothing; a text of expression tags alone ("[laugh]") makes their sound.
  if (body.generate_text.trim() === '')
    return fail('textMissing', 'generate_text has nothing to speak: it is only whitespace');
  if (length > config.maxTextLength) {
    return fail(
      'textTooLong',
      `generate_text is ${length} characters; at most ${config.maxTextLength} are allowed`,
    );
  }
  return checkSpeed(body.speed) ?? checkChoices(context, body);
}

/** JSON's 1e400 parses to Infinity, which the schema's `number` lets through. */
function checkSpeed(speed: number | undefined): Failure | undefined {
  if (speed === undefined) return undefined;
  if (!Number.isFinite(speed)) {
    return fail(
      'invalidRequest',
      `speed must be 0 (provider default) or a positive number, got ${speed} (a number too large for JSON)`,
    );
  }
  if (speed < 0)
    return fail('speedNegative', `speed must be 0 (provider default) or a positive number, got ${speed}`);
  return undefined;
}

/** The configured choices (language, emotion, format) and the voice. */
function checkChoices(
  context: OperationContext,
  body: SynthesisBody,
): Failure | { voice: VoiceProfile; format: AudioFormat } {
  const { config } = context.deps;
  const refused =
    checkOption('language', body.language, config.languages) ??
    checkOption('emotion_class', body.emotion_class, config.emotions) ??
    checkOption('audio_format', body.audio_format, config.audioFormats);
  if (refused) return refused;
  const voiceId = body.voice_id ?? config.defaultVoice;
  const voice = findVoice(context, voiceId);
  if (!voice) return fail('unknownVoice', `voice_id ${quoted(voiceId)} is not available to this project`);
  // `default-audio-format`: a profile may name the deployment's default, per endpoint.
  const byProfile =
    context.deps.calibration.defaultFormat[context.operationId === 'streamSpeech' ? 'stream' : 'complete'];
  return { voice, format: (body.audio_format ?? byProfile ?? config.defaultAudioFormat) as AudioFormat };
}

function synthesisOperation(mode: 'complete' | 'stream'): Operation {
  return async (context) => {
    const body = context.body as SynthesisBody;
    const checked = check(context, body);
    if ('kind' in checked) return checked;
    const { config, audio } = context.deps;
    const request: SynthesisRequest = {
      text: body.generate_text,
      voice: checked.voice,
      format: checked.format,
      chunkMs: config.streaming.chunkMs,
      ...(body.speed !== undefined ? { speed: body.speed } : {}),
      ...(body.emotion_class !== undefined ? { emotion: body.emotion_class } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
    };
    await context.deps.decide.chargeCharacters(context.caller.account, codePoints(body.generate_text));
    const audioHeaders = (meta: CompleteAudio['meta']): Record<string, string> => {
      if (checked.format !== 'pcm') return { 'Content-Type': meta.mediaType };
      return {
        'Content-Type': meta.mediaType,
        [config.pcmHeaders.sampleRate]: String(meta.sampleRate),
        [config.pcmHeaders.channels]: String(meta.channels),
        [config.pcmHeaders.bitDepth]: String(meta.bitDepth),
      };
    };
    if (mode === 'complete') {
      // Rendered as it is sent, unpaced, with its exact Content-Length; an identical small request is
      // answered from the cache.
      const complete = await completeAudio(context.deps, request, context.request.signal);
      // The client went away while audio of unknown length was being built: nobody is left to answer.
      if (!complete) return dropped;
      if ('bytes' in complete) return new BytesAnswer(200, complete.bytes, audioHeaders(complete.meta));
      const headers = { ...audioHeaders(complete.meta), 'Content-Length': String(complete.byteLength) };
      return new StreamAnswer(200, complete.source, headers);
    }
    // A new stream waits its turn before its text is sized too (a 2,000-character text is counted
    // before its first byte): 50 arriving at once were all sized before any of them sounded.
    const slice = context.deps.turns.slice();
    await slice.first();
    let synthesis: Awaited<ReturnType<typeof audio.synthesize>>;
    try {
      synthesis = await audio.synthesize(request);
    } catch (error) {
      slice.done();
      throw error;
    }
    const headers = audioHeaders(synthesis);
    const { preferences } = context;
    const pacing = {
      firstChunkDelayMs: preferences.latencyMs ?? config.streaming.firstChunkDelayMs,
      realtime: preferences.realtime ?? config.streaming.realtime,
      chunkMs: config.streaming.chunkMs,
    };
    return new StreamAnswer(200, audioChunks(synthesis, pacing, context.deps, slice), headers);
  };
}

/**
 * POST /v1/text-to-speech (§4.5): the complete audio in one body with its Content-Length, rendered as
 * it is sent (never held whole) and not paced.
 */
export const textToSpeech = synthesisOperation('complete');

/** POST /v1/text-to-speech/stream (§4.6): raw audio chunks as they are rendered, chunked transfer, no Content-Length. */
export const textToSpeechStream = synthesisOperation('stream');
