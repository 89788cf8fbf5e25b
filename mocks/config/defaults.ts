import type { AudioFormat } from '../../openapi/contract.js';
import { audioMediaTypes, limits, pcmHeaders } from '../../openapi/contract.js';
import type { KeyConfig, MockConfig } from './types.js';

const everything = { tts: true, upload: true, voiceCloning: true } as const;

/**
 * The default tenancy: five keys that exercise every scoping rule of §2.2 and §5.
 *
 * | key | user | organization | project | environment | Voice Cloning |
 * |---|---|---|---|---|---|
 * | mock-key | user-1 | org-1 | project-1 | production | on |
 * | mock-key-no-clone | user-1 | org-1 | project-1 | production | off |
 * | mock-key-other-project | user-1 | org-1 | project-2 | production | on |
 * | mock-key-other-env | user-1 | org-1 | project-1 | staging | on |
 * | mock-key-other-org | user-2 | org-2 | project-3 | production | on |
 *
 * The first four share the billing account `account-1` (and, being one user, one upload quota).
 *
 * @example
 * fetch(url, { headers: { 'X-API-Key': defaultKeys[0].key } });
 */
export const defaultKeys: readonly KeyConfig[] = [
  {
    key: 'mock-key',
    user: 'user-1',
    organization: 'org-1',
    project: 'project-1',
    environment: 'production',
    account: 'account-1',
    capabilities: everything,
  },
  {
    key: 'mock-key-no-clone',
    user: 'user-1',
    organization: 'org-1',
    project: 'project-1',
    environment: 'production',
    account: 'account-1',
    capabilities: { ...everything, voiceCloning: false },
  },
  {
    key: 'mock-key-other-project',
    user: 'user-1',
    organization: 'org-1',
    project: 'project-2',
    environment: 'production',
    account: 'account-1',
    capabilities: everything,
  },
  {
    key: 'mock-key-other-env',
    user: 'user-1',
    organization: 'org-1',
    project: 'project-1',
    environment: 'staging',
    account: 'account-1',
    capabilities: everything,
  },
  {
    key: 'mock-key-other-org',
    user: 'user-2',
    organization: 'org-2',
    project: 'project-3',
    environment: 'production',
    account: 'account-2',
    capabilities: everything,
  },
];

/**
 * Every default of the mock, in one place (the decision table of docs/spec-silent.md).
 *
 * @example
 * createMockService({ config: { ...defaultConfig, maxTextLength: 500 } });
 */
export const defaultConfig: MockConfig = {
  keys: defaultKeys,
  reservedVoiceIds: ['admin', 'default', 'system'],
  freeCloneUses: 3,
  uploadsPerHour: limits.uploadRatePerHour.value,
  maxTextLength: 10_000,
  languages: ['en', 'zh', 'ja', 'ko', 'es', 'fr', 'de', 'it', 'pt'],
  emotions: ['neutral', 'happy', 'sad', 'angry', 'calm', 'excited'],
  audioFormats: Object.keys(audioMediaTypes) as AudioFormat[],
  defaultVoice: 'system_default',
  defaultAudioFormat: 'wav',
  pcmHeaders: { ...pcmHeaders },
  streaming: { chunkMs: 100, firstChunkDelayMs: 0, realtime: false },
  reference: { maxPauseSeconds: 5, minSpeechSeconds: 1, fetchTimeoutMs: 10_000 },
  signedUrlTtlSeconds: 3600,
  requestLogSize: 200,
  allowPrivateUrls: false,
};
