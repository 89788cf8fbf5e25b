import { describe, expect, it } from 'vitest';
import { matchRoute } from './route-match.js';

describe('matchRoute', () => {
  it.each([
    ['POST', '/v1/files/upload', 'uploadFile', {}],
    ['post', '/v1/voice/save', 'saveVoice', {}],
    ['GET', '/v1/voice/list', 'listVoices', {}],
    ['DELETE', '/v1/voice/narrator', 'deleteVoice', { voice_id: 'narrator' }],
    ['DELETE', '/v1/voice/my%20voice%2Fv2', 'deleteVoice', { voice_id: 'my voice/v2' }],
    ['DELETE', '/v1/voice/list', 'deleteVoice', { voice_id: 'list' }],
    ['POST', '/v1/text-to-speech', 'synthesizeSpeech', {}],
    ['POST', '/v1/text-to-speech/stream', 'streamSpeech', {}],
  ])('%s %s → %s', (method, path, operationId, pathParams) => {
    expect(matchRoute(method, path)).toEqual({ kind: 'match', operationId, pathParams });
  });

  it.each([
    ['GET', '/v1/files/upload', ['POST']],
    ['PUT', '/v1/voice/list', ['DELETE', 'GET']],
    ['GET', '/v1/voice/narrator', ['DELETE']],
    ['GET', '/v1/text-to-speech/stream', ['POST']],
  ])('%s %s → method not allowed, allowed %j', (method, path, allowed) => {
    expect(matchRoute(method, path)).toEqual({ kind: 'method-not-allowed', allowed });
  });

  it.each([
    ['GET', '/v1/voices'],
    ['GET', '/v2/voice/list'],
    ['GET', '/v1/voice/list/'],
    ['DELETE', '/v1/voice/'],
    ['DELETE', '/v1/voice/a/b'],
    ['GET', '/'],
  ])('%s %s → not found', (method, path) => {
    expect(matchRoute(method, path)).toEqual({ kind: 'not-found' });
  });

  it.each([['/v1/voice/%FF'], ['/v1/voice/%E0%A4%A'], ['/v1/voice/a%zz']])(
    'DELETE %s → deleteVoice with the parameter as sent and marked malformed (a 400, not a 404)',
    (path) => {
      expect(matchRoute('DELETE', path)).toEqual({
        kind: 'match',
        operationId: 'deleteVoice',
        pathParams: { voice_id: path.slice('/v1/voice/'.length) },
        malformedParam: 'voice_id',
      });
    },
  );

  it('hands every request for a path the same outcome, frozen so that no caller changes the next', () => {
    const first = matchRoute('DELETE', '/v1/voice/kept');
    expect(matchRoute('DELETE', '/v1/voice/kept')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    if (first.kind !== 'match') throw new Error(`expected a match, got ${first.kind}`);
    expect(() => Object.assign(first.pathParams, { voice_id: 'changed' })).toThrow(TypeError);
    expect(matchRoute('DELETE', '/v1/voice/kept')).toEqual({
      kind: 'match',
      operationId: 'deleteVoice',
      pathParams: { voice_id: 'kept' },
    });
    const refused = matchRoute('PUT', '/v1/voice/list');
    if (refused.kind !== 'method-not-allowed') throw new Error(`expected a 405, got ${refused.kind}`);
    expect(Object.isFrozen(refused.allowed)).toBe(true);
  });
});
