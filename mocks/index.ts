/**
 * voice-kit's stateful mock of the Voice Cloning / Text-to-Speech / Audio Upload service.
 *
 * @example
 * import { createMockService, startMockServer, defaultKeys } from 'voice-kit';
 * const server = await startMockServer({ port: 0 });
 * await fetch(`${server.url}/v1/voice/list`, { headers: { 'X-API-Key': defaultKeys[0].key } });
 */

export { defaultConfig, defaultKeys } from './config/defaults.js';
export { ConfigError, parseConfig } from './config/parse-config.js';
export type { Capabilities, KeyConfig, MockConfig, MockConfigInput, PcmHeaderNames } from './config/types.js';
export { type Answer, BytesAnswer, type ChunkSource, StreamAnswer } from './core/answer.js';
export { type Clock, manualClock, offsetClock } from './core/clock.js';
export type { AudioEngine, CoreRequest, Logger, Soon } from './core/context.js';
export type { Envelope } from './core/envelope.js';
export type { Fault, Preferences } from './core/scenario.js';
export { createMockService, type MockService, type MockServiceOptions } from './core/service.js';
export type { MockSnapshot } from './core/state/mock-state.js';
export { memoryStorage, type Storage, type StorageWriter } from './core/storage.js';
export { type MockServer, type MockServerOptions, startMockServer } from './node/server.js';
