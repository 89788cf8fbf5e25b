/**
 * One step of an exploration: a request as data, so that it can be sent, budgeted before it is sent,
 * written into a reproduction and replayed. Values a step cannot know when it is written (an object
 * key, a list cursor) name the earlier step whose answer gives them; voice ids carry `{run}`, the run
 * prefix, so a replay creates voices of its own instead of reusing the ones the first run deleted.
 */
import type { OperationId } from '../../openapi/contract.js';
import type { FixtureRole, KeyName } from '../toolkit/run-state.js';

/** A value taken from the answer of an earlier step of the same sequence. */
export interface FromStep {
  readonly from: number;
  readonly field: 'object_key' | 'next_voice_id';
}

/** A literal, or a value from an earlier answer. */
export type StepValue = string | FromStep;

/** The upload of a kit fixture under a filename and scene. */
export interface StepUpload {
  readonly role: FixtureRole;
  readonly fileName: string;
  readonly scene: string;
  /** Send an empty file instead of the fixture's bytes. */
  readonly empty?: boolean;
}

export interface Step {
  /** What the step is for, in a few words (`save a voice from the upload of step 2`). */
  readonly label: string;
  readonly op: OperationId;
  readonly key: KeyName;
  /** deleteVoice: the voice id (with `{run}`). */
  readonly voice?: string;
  /** listVoices: page_size and the cursor. */
  readonly pageSize?: number;
  readonly cursor?: StepValue;
  /** saveVoice and synthesis: the JSON body; `ref_audio` may come from an upload step. */
  readonly json?: Readonly<Record<string, unknown>>;
  readonly refAudio?: StepValue;
  readonly upload?: StepUpload;
}

/** What a step may cost, counted before it is sent (a request that should be refused may be billed). */
export interface Cost {
  /** Characters billed for synthesis (§2.4: code points of generate_text, as the kit's mock counts). */
  readonly chars: number;
  readonly uploads: number;
  readonly creations: number;
}

export const codePoints = (s: string) => [...s].length;

/** The worst case a deployment may bill for the step. */
export function costOf(step: Step): Cost {
  if (step.op === 'uploadFile') return { chars: 0, uploads: 1, creations: 0 };
  if (step.op === 'saveVoice') return { chars: 0, uploads: 0, creations: 1 };
  if (step.op === 'synthesizeSpeech' || step.op === 'streamSpeech') {
    const text = step.json?.generate_text;
    return { chars: typeof text === 'string' ? codePoints(text) : 0, uploads: 0, creations: 0 };
  }
  return { chars: 0, uploads: 0, creations: 0 };
}

/** A voice id of the step with the run prefix filled in. */
export const withRun = (id: string, prefix: string) => id.replaceAll('{run}', prefix);
