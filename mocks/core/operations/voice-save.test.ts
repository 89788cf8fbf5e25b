import { describe, expect, it } from 'vitest';
import { normalizeVoiceId } from '../../../openapi/contract.js';
import { checkNewVoiceId } from './voice-save.js';

const reserved = new Set(['system_default', 'admin']);

describe('checkNewVoiceId (after normalization)', () => {
  it.each([
    ['Narrator', undefined],
    ['  my_voice-2  ', undefined],
    ['a'.repeat(30), undefined],
    ['a'.repeat(31), 'voiceIdTooLong'],
    [` ${'B'.repeat(31)} `, 'voiceIdTooLong'],
    ['', 'voiceIdInvalid'],
    ['   ', 'voiceIdInvalid'],
    ['my voice', 'voiceIdInvalid'],
    ['café', 'voiceIdInvalid'],
    ['a.b', 'voiceIdInvalid'],
    ['SYSTEM_DEFAULT', 'voiceIdTaken'],
    ['Admin ', 'voiceIdTaken'],
  ])('%j → %s', (raw, error) => {
    expect(checkNewVoiceId(normalizeVoiceId(raw), reserved)?.error).toBe(error);
  });
});
