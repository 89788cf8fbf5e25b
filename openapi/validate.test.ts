import { describe, expect, it } from 'vitest';
import { errors, operationIds } from './contract.js';
import {
  documentedOperationIds,
  documentedStatuses,
  errorExample,
  type SchemaProblem,
  validateJsonBody,
  validateQuery,
  validateResponse,
} from './validate.js';

/** The findings reduced to `pointer keyword`, the part callers branch on. */
function brief(findings: SchemaProblem[]): string[] {
  return findings.map((f) => `${f.pointer} ${f.keyword}`);
}

describe('validateJsonBody', () => {
  it.each([
    ['saveVoice', { voice_id: 'narrator', ref_audio: 'upl_1' }, []],
    ['saveVoice', { voice_id: '  Mixed Case  ', ref_audio: 'https://example.org/a.wav', extra: 1 }, []],
    ['saveVoice', {}, ['/voice_id required', '/ref_audio required']],
    ['saveVoice', { voice_id: 7, ref_audio: '' }, ['/voice_id type', '/ref_audio minLength']],
    ['saveVoice', [], [' type']],
    ['synthesizeSpeech', { generate_text: 'Hello' }, []],
    ['synthesizeSpeech', { generate_text: 'Hi', speed: 0, audio_format: 'pcm', language: 'en' }, []],
    ['synthesizeSpeech', { text: 'Hello' }, ['/generate_text required']],
    ['synthesizeSpeech', { generate_text: '' }, ['/generate_text minLength']],
    ['streamSpeech', { generate_text: 'Hi', speed: -0.5 }, ['/speed minimum']],
    ['streamSpeech', { generate_text: 'Hi', speed: '1' }, ['/speed type']],
    ['streamSpeech', null, [' type']],
  ] as const)('%s %j → %j', (operationId, body, expected) => {
    expect(brief(validateJsonBody(operationId, body))).toEqual(expected);
  });

  it.each(['uploadFile', 'listVoices', 'deleteVoice'] as const)('%s has no JSON body to validate', (id) => {
    expect(brief(validateJsonBody(id, {}))).toEqual([' requestBody']);
  });
});

describe('validateQuery', () => {
  it.each([
    [{}, []],
    [{ page_size: '1' }, []],
    [{ page_size: '20', voice_id: 'kids-story' }, []],
    [{ page_size: '5', unknown: 'x' }, []],
    [{ page_size: '0' }, ['/page_size minimum']],
    [{ page_size: '21' }, ['/page_size maximum']],
    [{ page_size: 'abc' }, ['/page_size type']],
    [{ page_size: '5.5' }, ['/page_size type']],
    [{ page_size: '' }, ['/page_size type']],
    [{ voice_id: '' }, ['/voice_id minLength']],
  ])('listVoices %j → %j', (query, expected) => {
    expect(brief(validateQuery('listVoices', query))).toEqual(expected);
  });

  it('does not modify the caller’s object while coercing', () => {
    const query = { page_size: '5' };
    validateQuery('listVoices', query);
    expect(query).toEqual({ page_size: '5' });
  });

  it('ignores queries of operations that declare none', () => {
    expect(validateQuery('saveVoice', { page_size: 'abc' })).toEqual([]);
  });
});

const envelope = { error_code: 0, error_message: '', succeed: true };
const voice = { voice_id: 'narrator', voice_url: 'http://127.0.0.1:4010/a?sig=1', created_at: 1767225600 };
const page = { list: [voice], has_more: false, total: 1, remainingFreeCloneCount: 2 };
const failure = { error_code: 10001, error_message: 'bad', succeed: false, data: null };

describe('validateResponse', () => {
  it.each([
    ['listVoices', 200, { ...envelope, data: page, added_by_deployment: true }, []],
    ['listVoices', 200, { ...envelope, data: { ...page, has_more: true } }, ['/data/next_voice_id required']],
    [
      'listVoices',
      200,
      { ...envelope, data: { ...page, list: [{ ...voice, created_at: 1.5 }] } },
      ['/data/list/0/created_at type'],
    ],
    ['listVoices', 200, { ...envelope, succeed: false, data: page }, ['/succeed const']],
    ['listVoices', 200, { ...envelope, error_message: 'ok', data: page }, ['/error_message const']],
    [
      'uploadFile',
      200,
      { ...envelope, data: { object_key: 'k', file_name: 'a.wav', size: 10, scene: 'audio' } },
      [],
    ],
    [
      'uploadFile',
      200,
      { ...envelope, data: { object_key: 'k', file_name: 'a.wav', scene: 'audio' } },
      ['/data/size required'],
    ],
    ['saveVoice', 200, { ...envelope, data: { voice_id: 'narrator' } }, []],
    ['saveVoice', 200, { ...envelope, data: null }, []],
    ['deleteVoice', 200, { ...envelope, data: null }, []],
    ['deleteVoice', 200, { ...envelope }, ['/data required']],
    ['deleteVoice', 403, failure, []],
    ['saveVoice', 409, { ...failure, error_code: 10018 }, []],
    ['uploadFile', 413, { ...failure, data: {} }, ['/data type']],
    ['uploadFile', 400, { ...failure, error_message: '' }, ['/error_message minLength']],
    ['synthesizeSpeech', 400, { ...failure, succeed: true }, ['/succeed const']],
    ['synthesizeSpeech', 200, 'not json at all', []],
    [
      'listVoices',
      200,
      { ...envelope, data: { ...page, list: [{ ...voice, voice_url: 'no scheme here' }] } },
      ['/data/list/0/voice_url format'],
    ],
  ] as const)('%s %i %j → %j', (operationId, status, body, expected) => {
    expect(brief(validateResponse(operationId, status, body))).toEqual(expected);
  });

  it.each([
    ['listVoices', 418],
    ['deleteVoice', 404],
    ['uploadFile', 409],
  ] as const)('%s %i is not documented', (operationId, status) => {
    const findings = validateResponse(operationId, status, failure);
    expect(brief(findings)).toEqual([' status']);
    expect(findings[0]?.message).toContain(String(status));
  });

  // The validators are precompiled by `npm run generate`; a status whose schema was missed would throw.
  it.each(operationIds.flatMap((id) => documentedStatuses(id).map((status) => [id, status] as const)))(
    '%s %i has a precompiled validator',
    (operationId, status) => {
      expect(() => validateResponse(operationId, status, null)).not.toThrow();
    },
  );
});

describe('documentedStatuses', () => {
  it.each([
    ['uploadFile', [200, 400, 401, 413, 429, 500, 503, 504]],
    ['saveVoice', [200, 400, 401, 403, 409, 413, 500]],
    ['listVoices', [200, 400, 401, 500]],
    ['deleteVoice', [200, 400, 401, 403, 500]],
    ['synthesizeSpeech', [200, 400, 401, 500]],
    ['streamSpeech', [200, 400, 401, 500]],
  ] as const)('%s → %j', (operationId, statuses) => {
    expect(documentedStatuses(operationId)).toEqual(statuses);
  });

  it('knows every operation of contract.ts', () => {
    expect([...documentedOperationIds()].sort()).toEqual([...operationIds].sort());
  });
});

describe('errorExample', () => {
  it.each([
    ['uploadFile', 400, errors.invalidUpload],
    ['uploadFile', 413, errors.fileTooLarge],
    ['uploadFile', 503, errors.storageUnavailable],
    ['saveVoice', 400, errors.voiceIdTooLong],
    ['saveVoice', 409, errors.voiceIdTaken],
    ['deleteVoice', 403, errors.systemVoiceNotDeletable],
    ['streamSpeech', 401, errors.missingApiKey],
    ['synthesizeSpeech', 500, errors.unexpected],
  ] as const)('%s %i → the first example, %o', (operationId, status, entry) => {
    expect(errorExample(operationId, status)).toEqual({
      error_code: entry.code,
      error_message: entry.message,
    });
  });

  it.each([
    ['listVoices', 200],
    ['listVoices', 503],
    ['synthesizeSpeech', 200],
  ] as const)('%s %i → undefined (no error example)', (operationId, status) => {
    expect(errorExample(operationId, status)).toBeUndefined();
  });
});
