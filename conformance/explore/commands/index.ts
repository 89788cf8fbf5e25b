/**
 * The commands of an exploration, by tier of the budget: lists and deletes first (free), then uploads
 * and the saves a deployment must refuse, then creations and speech, weighted towards what uses the
 * voices a sequence made (synthesis, deletes, small pages and their cursors), and steering (steer.ts):
 * lists of the page size that reaches a state of the coverage not reached yet.
 */
import { deleteCommands, freeDeleteCommands } from './delete.js';
import { listCommands, walkCommands } from './list.js';
import { probeCommands } from './probe.js';
import { saveCommands } from './save.js';
import { steerCommands } from './steer.js';
import { synthesizeCommands } from './synthesize.js';
import { paidUploadCommands, uploadCommands } from './upload.js';

export type Tier = 'free' | 'uploads' | 'paid';
export const tiers: readonly Tier[] = ['free', 'uploads', 'paid'];

export function commandsOf(tier: Tier) {
  const free = [...listCommands, ...freeDeleteCommands, ...steerCommands];
  if (tier === 'free') return free;
  if (tier === 'uploads')
    return [
      ...listCommands,
      ...probeCommands,
      ...probeCommands,
      ...probeCommands,
      ...probeCommands,
      ...uploadCommands,
      ...steerCommands,
    ];
  return [
    ...listCommands,
    ...walkCommands,
    ...paidUploadCommands,
    ...saveCommands,
    ...synthesizeCommands,
    ...deleteCommands,
    ...steerCommands,
    ...steerCommands,
  ];
}
