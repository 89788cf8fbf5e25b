import type { Analysis } from '../../../audio/types.js';
import { errors, limits, normalizeVoiceId, referenceVerdicts, voiceId } from '../../../openapi/contract.js';
import type { SaveVoiceRequest } from '../../../openapi/generated/voice-service.js';
import { type Failure, fail, isFailure, ok, quoted } from '../answer/envelope.js';
import { type Calibration, dataFor } from '../calibration.js';
import type { Operation, OperationContext } from '../context.js';
import { unixSeconds } from '../platform/clock.js';
import { loadReference } from '../reference/reference-audio.js';
import type { VoiceClaim } from '../state/decisions.js';
import type { UploadAnalysis } from '../state/mock-state.js';

const containerTypes: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
};

/** The media type of an accepted reference: only audio types (voiceAudioMediaTypes), never a guess. */
function audioMediaTypeOf(container: string): string {
  const type = containerTypes[container];
  // The analysis accepts no other container: a bug, loud (a 500), not a voice served as anything else.
  if (type === undefined) throw new Error(`no audio media type for an accepted ${container} reference`);
  return type;
}

/** Checks a normalized new voice id against §2.3 and §4.2 rules 1 and 2 (not yet against existing voices). */
export function checkNewVoiceId(id: string, reserved: ReadonlySet<string>): Failure | undefined {
  if (id.length > limits.voiceIdMaxLength.value) {
    return fail(
      'voiceIdTooLong',
      `voice_id ${quoted(id)} is ${id.length} characters after trimming and lowercasing; at most 30 are allowed`,
    );
  }
  if (id.length === 0) return fail('voiceIdInvalid', 'voice_id is empty after trimming whitespace');
  if (!new RegExp(voiceId.pattern).test(id)) {
    return fail(
      'voiceIdInvalid',
      `voice_id ${quoted(id)} may only contain ${voiceId.alphabet} after trimming and lowercasing`,
    );
  }
  if (reserved.has(id)) return fail('voiceIdTaken', `voice_id ${quoted(id)} is reserved`);
  return undefined;
}

/** The ids nobody may create: system voices, the default voice, and the configured reserved ids. */
export const reservedIds = ({ deps }: Pick<OperationContext, 'deps'>): Set<string> =>
  new Set([
    ...deps.audio.systemVoices.map((v) => v.id),
    deps.config.defaultVoice,
    ...deps.config.reservedVoiceIds,
  ]);

/**
 * POST /v1/voice/save (§4.2): creates a custom voice from reference audio. The id is reserved
 * synchronously before anything is awaited, so of concurrent saves of one id exactly one wins; an
 * existing voice is never replaced. The first `freeCloneUses` creations of an account are free, later
 * ones are recorded as charged.
 */
export const voiceSave: Operation = async (context) => {
  const { caller, deps } = context;
  const body = context.body as SaveVoiceRequest;
  if (!caller.capabilities.voiceCloning) return fail('voiceCloningDisabled');
  const id = normalizeVoiceId(body.voice_id);
  const refused = checkNewVoiceId(id, reservedIds(context));
  if (refused) return refused;
  const taken = () => fail('voiceIdTaken', `voice_id ${quoted(id)} already exists`);
  const claim = await deps.decide.claimVoice(caller.voiceSpace, id);
  if (!claim) return taken();
  try {
    const created = await createVoice(context, id, body.ref_audio, claim);
    if (isFailure(created)) return created;
    if (created === 'taken') return taken();
    const { saveData } = deps.calibration;
    return ok(saveData ? dataFor(saveData, id) : { voice_id: id });
  } finally {
    claim.release();
  }
};

/** An analysis as the state view shows it. */
export function analysisView(analysis: Analysis): UploadAnalysis {
  return analysis.ok
    ? {
        verdict: 'accepted',
        container: analysis.container,
        codec: analysis.codec ?? null,
        durationSeconds: analysis.durationSeconds,
        reason: null,
      }
    : {
        verdict: analysis.verdict,
        container: analysis.container,
        codec: null,
        durationSeconds: analysis.durationSeconds ?? null,
        reason: analysis.reason,
      };
}

/**
 * The analysis accepts exactly 3 s and exactly 60 s (`reference-duration-boundaries`); a profile may say
 * the deployment refuses them: 20016 at 3 s, 20015 at 60 s. Only for a compressed reference (MP3, M4A,
 * WebM, OGG), whose duration depends on how the encoder's padding is counted, which is what the point
 * is about: a WAV of exactly 3.000 s or 60.000 s is accepted by every deployment that keeps §8 (the
 * suite's `voice-save.reference.duration-in-range` is a must).
 */
function exclusiveBoundary(
  calibration: Calibration,
  container: string,
  seconds: number,
): Failure | undefined {
  if (container === 'wav') return undefined;
  const { referenceMinSeconds: min, referenceMaxSeconds: max } = limits;
  if (calibration.exclusiveShortest && seconds <= min.value)
    return fail(
      'refAudioTooShort',
      `reference audio is ${seconds} s long; more than ${min.value} s is required`,
    );
  if (calibration.exclusiveLongest && seconds >= max.value)
    return fail(
      'refAudioTooLong',
      `reference audio is ${seconds} s long; less than ${max.value} s is allowed`,
    );
  return undefined;
}

/** Undefined once the voice is saved; 'taken' when another mock of a shared state saved the id first. */
async function createVoice(
  context: OperationContext,
  id: string,
  ref: string,
  claim: VoiceClaim,
): Promise<Failure | 'taken' | undefined> {
  const { caller, deps } = context;
  const reference = await loadReference(deps, caller, ref);
  if (isFailure(reference)) return reference;
  const { maxPauseSeconds, minSpeechSeconds } = deps.config.reference;
  const analysis = await deps.audio.analyze(reference.bytes, {
    maxPauseSeconds,
    minSpeechSeconds,
    fileName: reference.fileName,
  });
  if (reference.uploadId) deps.state.analyses.set(reference.uploadId, analysisView(analysis));
  if (!analysis.ok)
    return fail(
      referenceVerdicts[analysis.verdict],
      analysis.reason || errors[referenceVerdicts[analysis.verdict]].message,
    );
  const boundary = exclusiveBoundary(deps.calibration, analysis.container, analysis.durationSeconds);
  if (boundary) return boundary;
  const ref32 = (
    await deps.signer.sign(`voice\u0000${caller.voiceSpace}\u0000${id}\u0000${deps.clock.now()}`)
  ).slice(0, 32);
  const audioId = reference.uploadId ?? `voice_${ref32}`;
  if (!reference.uploadId) {
    const writer = deps.storage.create(audioId);
    await writer.write(reference.bytes);
    await writer.close();
  }
  const createdAt = unixSeconds(deps.clock);
  const voice = await claim.save({
    voiceId: id,
    space: caller.voiceSpace,
    createdAt,
    ref: ref32,
    audioId,
    audioMediaType: audioMediaTypeOf(analysis.container),
    ownsAudio: !reference.uploadId,
    account: caller.account,
    profile: deps.audio.profileFromReference(id, { pitchHz: analysis.pitchHz }, deps.seed),
  });
  if (voice) return undefined;
  // Bytes fetched for this voice alone are named by no voice now.
  if (!reference.uploadId) await deps.storage.remove(audioId).catch(() => {});
  return 'taken';
}
