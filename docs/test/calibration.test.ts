// docs/calibration.md: every ```json block is a profile the kit reads, and its table of points lists
// exactly the points of profile/points.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../profile/parse.js';
import { pointIds, points } from '../../profile/points.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(root, 'docs', 'calibration.md'), 'utf8');

describe('docs/calibration.md', () => {
  it('every json block is a profile parseProfile accepts', () => {
    const blocks = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(() => parseProfile(JSON.parse(block))).not.toThrow();
  });

  it('the table of points lists every point of the catalogue once, with its question', () => {
    const table = page.slice(page.indexOf('\n## The points\n'));
    const rows = [...table.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows.map(([id]) => id).sort()).toEqual([...pointIds].sort());
    for (const [id, question] of rows) expect(question, id).toBe(points[id as keyof typeof points].question);
  });
});
