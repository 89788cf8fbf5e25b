/**
 * Request rules: was the deployment right to accept or refuse this request, on request grounds alone?
 * Accepting what the spec refuses (a voice_id outside a-z 0-9 _ - after trimming and lowercasing, a
 * scene other than audio, an empty file, an extension outside the five, a negative speed, no text) is a
 * violation; so is refusing, with the code of that ground, what the spec allows (10001 for an id that is
 * valid once normalized, 20012 for `.ogg`). Refusals that depend on state or content (quota, duplicates,
 * audio content, billing) are never judged here; a synthesis refused although one like it was accepted
 * before is judged by the session (session-rules.ts), which knows what was accepted.
 */
import { extensionOf } from '../common/multipart/head.js';
import { errors, normalizeVoiceId, synthesis, upload, voiceId } from '../openapi/contract.js';
import {
  type ExchangeFacts,
  errorCodeOf,
  type FormPart,
  isRefusal,
  isSuccess,
  jsonObject,
  sentAsJson,
} from './exchange.js';
import type { Add } from './exchange-rules.js';
import { rules } from './rules.js';

const idPattern = new RegExp(voiceId.pattern);

/** Why a new voice_id is invalid, or undefined when it is valid (§2.3). */
export function voiceIdProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined; // the schema rule says it
  const id = normalizeVoiceId(raw);
  return idPattern.test(id)
    ? undefined
    : `voice_id ${JSON.stringify(raw)} is ${JSON.stringify(id)} once trimmed and lowercased, not 1 to 30 of ${voiceId.alphabet}`;
}

/** Refusal codes that name a request ground (others are state, content, billing or faults). */
const invalidCode = errors.invalidRequest.code;

/**
 * Every request rule the exchange breaks.
 *
 * @example judgeRequest(facts, (rule, seen) => out.push({ rule, seen }));
 */
export function judgeRequest(facts: ExchangeFacts, add: Add): void {
  // An unauthenticated or forbidden request was never judged on its content.
  if (facts.status === 401 || facts.status === 403) return;
  if (facts.operationId === 'saveVoice') judgeSave(facts, add);
  else if (facts.operationId === 'uploadFile') judgeUpload(facts, add);
  else if (facts.operationId === 'synthesizeSpeech' || facts.operationId === 'streamSpeech')
    judgeSynthesis(facts, add);
}

function judgeSave(facts: ExchangeFacts, add: Add): void {
  const body = jsonObject(facts.requestJson);
  if (!body || typeof body.voice_id !== 'string') return;
  const problem = voiceIdProblem(body.voice_id);
  if (problem && isSuccess(facts)) add(rules.voiceId, `${problem}; HTTP ${facts.status} accepted it`);
  const refAudioGiven = typeof body.ref_audio === 'string' && body.ref_audio.trim() !== '';
  if (
    !problem &&
    refAudioGiven &&
    sentAsJson(facts) &&
    isRefusal(facts) &&
    errorCodeOf(facts) === invalidCode
  )
    add(
      rules.voiceId,
      `voice_id ${JSON.stringify(body.voice_id)} is valid once trimmed and lowercased (${JSON.stringify(normalizeVoiceId(body.voice_id))}); HTTP ${facts.status} refused it with ${invalidCode}`,
    );
}

/** What is wrong with the form on request grounds (scene, file count, empty file), or undefined. */
function formProblem(scene: FormPart | undefined, files: readonly FormPart[]): string | undefined {
  if (scene?.text !== undefined && !(upload.scenes as readonly string[]).includes(scene.text))
    return `scene is ${JSON.stringify(scene.text)}; §4.1 shows only "audio"`;
  if (files.length !== 1) return `${files.length} file parts; §4.1 asks for one`;
  if (files[0]?.bytes === 0) return 'the file is empty; §4.1 asks for a nonempty one';
  return undefined;
}

function judgeUpload(facts: ExchangeFacts, add: Add): void {
  const form = facts.form;
  if (!form || form.error || !form.complete) return;
  const scene = form.parts.find((p) => p.name === upload.sceneField);
  const files = form.parts.filter((p) => p.name === upload.fileField);
  const problem = formProblem(scene, files);
  const code = errorCodeOf(facts);
  // A valid form refused with 10001 is not judged: §7.1's 10001 also covers multipart the observer may
  // have read differently; 20012 names the extension alone.
  if (problem && isSuccess(facts)) add(rules.uploadForm, `${problem}; HTTP ${facts.status} accepted it`);
  const file = files.length === 1 ? files[0] : undefined;
  if (!file || file.filename === undefined) return;
  // `.wav`: a name with no extension, or the extension wav? The spec does not say; either reading stands.
  if (/^\.[^.]*$/.test(file.filename)) return;
  const ext = extensionOf(file.filename);
  const allowed = (upload.allowedExtensions as readonly string[]).includes(ext);
  if (!allowed && isSuccess(facts))
    add(
      rules.fileExtension,
      `the file ${JSON.stringify(file.filename)} has ${ext ? `extension .${ext}` : 'no extension'}, not one of .${upload.allowedExtensions.join(', .')}; HTTP ${facts.status} accepted it`,
    );
  // §7.1 states 10001 and 20012 with 400: under another status the pairing rule already speaks.
  if (facts.status !== errors.unsupportedExtension.status && !isSuccess(facts)) return;
  if (allowed && isRefusal(facts) && code === errors.unsupportedExtension.code)
    add(
      rules.fileExtension,
      `the file ${JSON.stringify(file.filename)} has the allowed extension .${ext}; HTTP ${facts.status} refused it with ${code}`,
    );
}

function judgeSynthesis(facts: ExchangeFacts, add: Add): void {
  const body = jsonObject(facts.requestJson);
  if (!body || !isSuccess(facts)) return;
  if (typeof body.speed === 'number' && body.speed < synthesis.speedMinimum)
    add(rules.speed, `speed ${body.speed} is negative; HTTP ${facts.status} accepted it (§7.3: rejected)`);
  const text = body[synthesis.textField] ?? body[synthesis.textAliasField]; // the alias is open (`text-alias`)
  if (typeof text !== 'string' || text.trim() === '')
    add(
      rules.synthesis,
      `no ${synthesis.textField} to synthesize (${JSON.stringify(text ?? null)}); HTTP ${facts.status} accepted it`,
    );
}
