import { describe, expect, it } from 'vitest';
import { defaultConfig } from './defaults.js';
import { ConfigError, parseConfig } from './parse-config.js';

const key = { key: 'k', user: 'u', organization: 'o', project: 'p', environment: 'e' };

describe('parseConfig', () => {
  it('gives the defaults for an empty object', () => {
    expect(parseConfig({})).toEqual(defaultConfig);
  });

  it('merges partial sections and fills key defaults (account = organization, every capability on)', () => {
    const config = parseConfig({ keys: [key], streaming: { chunkMs: 20 }, maxTextLength: 500 });
    expect(config.keys).toEqual([
      { ...key, account: 'o', capabilities: { tts: true, upload: true, voiceCloning: true } },
    ]);
    expect(config.streaming).toEqual({ ...defaultConfig.streaming, chunkMs: 20 });
    expect(config.maxTextLength).toBe(500);
  });

  it.each([
    [
      { keys: [key, key, { ...key, key: 'k3', organization: '' }] },
      'config.keys[2].organization: expected a non-empty string',
    ],
    [{ keys: [key, key] }, 'config.keys[1].key: duplicate key "k"'],
    [{ keys: [] }, 'config.keys: expected a non-empty array'],
    [
      { keys: [{ ...key, capabilities: { clone: true } }] },
      'config.keys[0].capabilities.clone: unknown capability',
    ],
    [{ freeCloneUses: -1 }, 'config.freeCloneUses: expected an integer >= 0'],
    [{ uploadsPerHour: 2.5 }, 'config.uploadsPerHour: expected an integer >= 0'],
    [{ audioFormats: ['wav', 'flac'] }, 'config.audioFormats: unknown format flac'],
    [{ audioFormats: ['mp3'] }, 'config.defaultAudioFormat: "wav" is not in config.audioFormats'],
    [{ streaming: { chunkMs: 0 } }, 'config.streaming.chunkMs: expected a number >= 1'],
    [{ streaming: { realtime: 'yes' } }, 'config.streaming.realtime: expected true or false'],
    [{ allowPrivateUrls: 1 }, 'config.allowPrivateUrls: expected true or false'],
    [{ reference: { maxPause: 3 } }, 'config.reference.maxPause: unknown field'],
    [{ pcmHeaders: { sampleRate: '' } }, 'config.pcmHeaders.sampleRate: expected a non-empty string'],
    [
      { pcmHeaders: { sampleRate: 'Content-Length' } },
      'config.pcmHeaders.sampleRate: "Content-Length" frames the body or says what it is; a PCM header needs a name of its own',
    ],
    [
      { pcmHeaders: { channels: 'Transfer-Encoding' } },
      'config.pcmHeaders.channels: "Transfer-Encoding" is a hop-by-hop',
    ],
    [{ pcmHeaders: { bitDepth: 'Set-Cookie' } }, 'config.pcmHeaders.bitDepth: "Set-Cookie" carries cookies'],
    [
      { pcmHeaders: { bitDepth: 'Access-Control-Allow-Origin' } },
      '"Access-Control-Allow-Origin" is a CORS header',
    ],
    [
      { pcmHeaders: { bitDepth: 'X Bits' } },
      'config.pcmHeaders.bitDepth: "X Bits" is not a valid HTTP header name',
    ],
    [
      { pcmHeaders: { sampleRate: 'X-A', channels: 'x-a', bitDepth: 'X-B' } },
      'config.pcmHeaders: the three header names must differ',
    ],
    [{ languagez: ['en'] }, 'config.languagez: unknown field (did you mean languages?)'],
    [
      { maxTextLenght: 10 },
      'config.maxTextLenght: unknown field (did you mean maxTextLength?); known: keys,',
    ],
    [{ stateDirr: 'x' }, 'config.stateDirr: unknown field (did you mean stateDir?)'],
    [{ streaming: { chunkMS: 5 } }, 'config.streaming.chunkMS: unknown field (did you mean chunkMs?)'],
    [{ stateDir: 'x' }, 'config.stateDir: read from a config file by the Node server'],
    [[], 'config: expected a JSON object'],
  ])('refuses %j naming the field', (input, message) => {
    expect(() => parseConfig(input)).toThrow(ConfigError);
    expect(() => parseConfig(input)).toThrow(message);
  });
});

describe('the known fields an unknown one is told', () => {
  it('name every field a config file may hold, stateDir and stateUrl included', () => {
    let message = '';
    try {
      parseConfig({ nope: 1 });
    } catch (e) {
      message = (e as ConfigError).problems[0] ?? '';
    }
    const known = message.replace(/^.*known: /, '').split(', ');
    expect(known.sort()).toEqual([...Object.keys(defaultConfig), 'stateDir', 'stateUrl', 'profile'].sort());
  });
});
