// GET /__mock/state as the core declares it: types only, erased from the bundle (bundle.test.ts).
import type { StateView, VoiceView } from '../core/control/state-view.js';

export type { StateView };
/** One custom voice. */
export type Voice = VoiceView;
/** One upload, with what the reference analysis said of it. */
export type Upload = StateView['uploads'][number];
