import { asEnvelope } from '../../judge/envelope.js';
import { errors, type OperationId, upload } from '../../openapi/contract.js';
import { deleteVoice, listPage, synthesize, uploadForm } from '../toolkit/actions.js';
import type { CaseContext, ConformanceCase, KeyChoice } from '../toolkit/context.js';
import { expectRefusal } from '../toolkit/expect.js';
import type { Exchange } from '../toolkit/http.js';
import { shortText, tinyWav } from './support.js';

/** One well-formed request per operation, so that the key is the only thing wrong with it. */
const requests: Record<OperationId, (ctx: CaseContext, key: KeyChoice) => Promise<Exchange>> = {
  uploadFile: (ctx, key) =>
    uploadForm(ctx, { scene: upload.scenes[0], file: { name: 'auth-check.wav', bytes: tinyWav() } }, key),
  saveVoice: (ctx, key) => {
    // The reference does not exist, so even a service that ignored the key creates nothing.
    return ctx.call({
      op: 'saveVoice',
      method: 'POST',
      path: '/v1/voice/save',
      key,
      json: { voice_id: ctx.newVoiceId('auth'), ref_audio: 'voice-kit-no-such-object-key' },
    });
  },
  listVoices: async (ctx, key) => (await listPage(ctx, {}, key)).ex,
  deleteVoice: (ctx, key) => deleteVoice(ctx, ctx.newVoiceId('auth'), key),
  synthesizeSpeech: (ctx, key) => synthesize(ctx, 'complete', { generate_text: shortText }, { key }),
  streamSpeech: (ctx, key) => synthesize(ctx, 'stream', { generate_text: shortText }, { key }),
};

const variants = [
  { name: 'missing-key', what: 'a request without X-API-Key', key: null },
  {
    name: 'invalid-key',
    what: 'a request with an unknown X-API-Key',
    key: { raw: 'voice-kit-invalid-key-0000' },
  },
] as const;

/**
 * §5: every endpoint requires the key, so a missing or invalid one must be refused everywhere; the
 * exact 401/10003 is stated for upload only, so elsewhere it is a strong reading (should).
 */
export const authCases: ConformanceCase[] = Object.entries(requests).flatMap(([op, send]) =>
  variants.map(
    (v): ConformanceCase => ({
      id: `auth.${op}.${v.name}`,
      section: op === 'uploadFile' ? '§5.5, §7.1' : '§5.1, §5.5',
      severity: 'must',
      title: `${op}: ${v.what} is refused${op === 'uploadFile' ? ' with 401/10003' : ' as unauthenticated (401/403 or 10003; exactly 401/10003 should)'}`,
      covers: { codes: [errors.missingApiKey.code] },
      async run(ctx) {
        judge(ctx, op as OperationId, v.what, await send(ctx, v.key));
      },
    }),
  ),
);

function judge(ctx: CaseContext, op: OperationId, what: string, ex: Exchange): void {
  if (op === 'uploadFile') {
    expectRefusal(ctx, ex, {
      what: `${op}: ${what}`,
      status: errors.missingApiKey.status,
      code: errors.missingApiKey.code,
    });
    return;
  }
  // Outside upload the exact pair is a strong reading (should), but the refusal must be an
  // authentication refusal: a deployment that ignored the key would answer for the request instead
  // (400/20012 for the fake ref_audio of the save, 200 elsewhere).
  if (!expectRefusal(ctx, ex, { what: `${op}: ${what}` })) return;
  const code = asEnvelope(ex.json)?.error_code;
  ctx.check(
    ex.status === 401 || ex.status === 403 || code === errors.missingApiKey.code,
    `${op}: ${what} answered HTTP ${ex.status}, error_code ${code ?? 'none'}: not an authentication refusal (401/403 or error_code ${errors.missingApiKey.code}); the key looks ignored`,
    { request: ex.request },
  );
  ctx.check(
    ex.status === errors.missingApiKey.status && code === errors.missingApiKey.code,
    `${op}: ${what}: HTTP ${ex.status}, error_code ${code ?? 'none'}, expected ${errors.missingApiKey.status}/${errors.missingApiKey.code}`,
    { request: ex.request, level: 'should' },
  );
}
