import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../common/control-access.js';
import { controlGuard } from './control-guard.js';

const request = (headers: Record<string, string>) =>
  ({ rawHeaders: Object.entries(headers).flat() }) as unknown as IncomingMessage;

describe('isLoopbackHost (is the control API reachable beyond this machine?)', () => {
  it.each(['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '10.1.2.3', '192.168.1.9', 'mock', 'example.test', '128.0.0.1'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('controlGuard', () => {
  const open = controlGuard('127.0.0.1', undefined);
  const guarded = controlGuard('0.0.0.0', 'secret');

  it('lets the API and the voice_url audio through untouched', () => {
    const foreign = request({ Host: 'evil.test', Origin: 'http://evil.test' });
    expect(open.check(foreign, '/v1/voice/list')).toBeUndefined();
    expect(guarded.check(foreign, '/__mock/voice-audio/abc')).toBeUndefined();
  });

  it.each([
    [{ Host: '127.0.0.1:4010' }, undefined],
    [{ Host: 'localhost:4010', Origin: 'http://localhost:4010' }, undefined],
    [{ Host: '[::1]:4010' }, undefined],
    [{ Host: '127.0.0.1:4010', Origin: 'http://app.test:5173' }, 'controlRefused'],
    [{ Host: '127.0.0.1:4010', Origin: 'null' }, 'controlRefused'],
    [{ Host: 'rebound.example:4010' }, 'controlRefused'],
  ])('on loopback, %j → %s', (headers, refusal) => {
    expect(open.check(request(headers), '/__mock/reset')?.error).toBe(refusal);
  });

  it('beyond loopback, asks for the token, on the machine’s own addresses', () => {
    expect(guarded.check(request({ Host: '192.0.2.7:4010' }), '/__mock/reset')?.error).toBe(
      'controlTokenMissing',
    );
    expect(
      guarded.check(request({ Host: '192.0.2.7:4010', 'X-Mock-Control-Token': 'wrong' }), '/__mock/')?.error,
    ).toBe('controlTokenMissing');
    expect(
      guarded.check(request({ Host: '192.0.2.7:4010', 'X-Mock-Control-Token': 'secret' }), '/__mock/'),
    ).toBeUndefined();
    expect(
      guarded.check(request({ Host: 'rebound.example', 'X-Mock-Control-Token': 'secret' }), '/__mock/')
        ?.error,
    ).toBe('controlRefused');
  });

  it('answers at the host name it was bound to', () => {
    const named = controlGuard('mock', 'secret');
    expect(
      named.check(request({ Host: 'mock:4010', 'X-Mock-Control-Token': 'secret' }), '/__mock/'),
    ).toBeUndefined();
  });
});
