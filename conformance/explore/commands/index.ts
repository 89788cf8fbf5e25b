/**
 * The commands of an exploration, by tier of the budget: lists and refusals first (free), then
 * uploads, then creations and speech. A later tier holds the earlier ones, so its sequences mix all.
 */
import { deleteCommands, freeDeleteCommands } from './delete.js';
import { listCommands } from './list.js';
import { saveCommands } from './save.js';
import { synthesizeCommands } from './synthesize.js';
import { paidUploadCommands, uploadCommands } from './upload.js';

export type Tier = 'free' | 'uploads' | 'paid';
export const tiers: readonly Tier[] = ['free', 'uploads', 'paid'];

export function commandsOf(tier: Tier) {
  const free = [...listCommands, ...freeDeleteCommands];
  if (tier === 'free') return free;
  if (tier === 'uploads') return [...free, ...uploadCommands];
  // Lists and deletes twice: a cursor held across a delete is a sequence worth reaching (§4.3, §4.4).
  return [
    ...free,
    ...listCommands,
    ...paidUploadCommands,
    ...saveCommands,
    ...synthesizeCommands,
    ...deleteCommands,
    ...deleteCommands,
  ];
}
