/**
 * voice-kit: the stateful mock of the Voice Cloning / Text-to-Speech / Audio Upload service, as one
 * platform-free service (Fetch, Web Streams, Web Crypto only): it runs in Node, in a browser and in
 * workers alike. The HTTP server is `voice-kit/node`; the MSW handlers are `voice-kit/msw`.
 *
 * @example
 * import { createMockService, defaultKeys } from 'voice-kit';
 * const service = createMockService();
 * await service.fetch(new Request('http://mock.test/v1/voice/list', { headers: { 'X-API-Key': defaultKeys[0].key } }));
 */

// Calibration profiles (docs/calibration.md): read and checked as createMockService({ profile }) does.
export { ProfileError, parseProfile, parseProfileText } from '../profile/parse.js';
export { type PointId, points as profilePoints } from '../profile/points.js';
export type { Choice, Evidence, Profile, ProfileEntry } from '../profile/types.js';
export { defaultConfig, defaultKeys } from './config/defaults.js';
export { ConfigError, parseConfig } from './config/parse-config.js';
export type { Capabilities, KeyConfig, MockConfig, MockConfigInput, PcmHeaderNames } from './config/types.js';
export {
  type Answer,
  BytesAnswer,
  type ChunkSource,
  DroppedAnswer,
  dropped,
  StreamAnswer,
} from './core/answer/answer.js';
export type { Envelope } from './core/answer/envelope.js';
export type { AudioEngine, CoreRequest, Logger } from './core/context.js';
export { maxPopulateVoices, type PopulateOptions, type PopulateResult } from './core/control/populate.js';
export { type Clock, manualClock, offsetClock } from './core/platform/clock.js';
export { memoryStorage, type Storage, type StorageWriter } from './core/platform/storage.js';
export type { Fault, Preferences } from './core/request/scenario.js';
export { createMockService, type MockService, type MockServiceOptions } from './core/service.js';
export type { MockSnapshot } from './core/state/mock-state.js';
export {
  memoryStore,
  type StateChange,
  type StateRow,
  type StateStore,
  type StateTable,
} from './core/state/state-store.js';
