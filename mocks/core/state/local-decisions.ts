import type { StateDecisions } from './decisions.js';
import type { MockState } from './mock-state.js';
import {
  charactersChange,
  uploadChange,
  voiceChange,
  voiceRemovedChange,
  voicesChange,
} from './persisted-rows.js';
import type { StateChange } from './state-store.js';

/**
 * The decisions of a mock alone: made in memory, synchronously (so that of concurrent saves exactly
 * one wins before anything is awaited), then handed to its store (`persist`).
 *
 * @example
 * const decide = localDecisions(state, persist);
 */
export function localDecisions(
  state: MockState,
  persist: (change: StateChange) => Promise<void>,
): StateDecisions {
  return {
    claimVoice: async (space, voiceId) => {
      const voices = state.voices;
      if (!voices.reserve(space, voiceId)) return undefined;
      return {
        save: async (record) => {
          const voice = state.voices.commit(record);
          state.ledger.recordCreation(record.account, record.voiceId, record.createdAt);
          await persist(voiceChange(state, voice));
          return voice;
        },
        release: () => voices.release(space, voiceId),
      };
    },
    takeUpload: async (user, nowMs) => {
      const ticket = state.rateLimit.take(user, nowMs);
      if (!ticket) return { retryAfterSeconds: state.rateLimit.retryAfterSeconds(user, nowMs) };
      return {
        commit: async (record, at) => {
          ticket.commit(at);
          state.uploads.add(record);
          await persist(uploadChange(state, record));
          return undefined;
        },
        release: () => ticket.release(),
      };
    },
    nextUploadSequence: async () => state.uploads.nextSequence(),
    deleteVoice: async (space, voiceId) => {
      const removed = state.voices.remove(space, voiceId);
      if (removed) await persist(voiceRemovedChange(removed));
      return removed;
    },
    chargeCharacters: async (account, characters) => {
      state.ledger.recordCharacters(account, characters);
      await persist(charactersChange(state, account));
    },
    addVoices: async (records) => {
      const voices = records.map((record) => state.voices.commit(record));
      await persist(voicesChange(state, voices));
      return voices;
    },
  };
}
