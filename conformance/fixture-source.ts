import type { FixtureFile, FixtureRole } from './run-state.js';

/** Placeholder until fixtures/index.ts lands. */
export async function kitFixtures(_role: FixtureRole): Promise<FixtureFile | undefined> {
  return undefined;
}
