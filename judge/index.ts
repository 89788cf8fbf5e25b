/**
 * judge/: the one judge of exchanges, requests and sessions, shared by the suite, the proxy and the
 * mock. What the rest of the kit imports from here.
 */
export {
  audioKindOf,
  type ClaimedAudio,
  checkPcm,
  checkWav,
  claimedAudio,
  pcmLayoutOf,
  silencePeak,
  silenceProblem,
} from './audio.js';
export { AudioWatch, checkMp3 } from './audio-watch.js';
export { asEnvelope, type Envelope, envelopeProblems, isObject } from './envelope.js';
export type {
  AudioKind,
  AudioSummary,
  ExchangeFacts,
  FormPart,
  FormSummary,
  HeaderMap,
  KeptBody,
  PcmLayout,
} from './exchange.js';
export { createJudge, defaultJudgeOptions, type Judge, type JudgeOptions, type Verdict } from './judge.js';
export { allRules, type Rule, type RuleKind, rules, type Severity } from './rules.js';
export { type KeyScope, maskKey } from './session.js';
