/**
 * `voice-kit conformance --write-profile FILE`: the profile file (0600, via a temporary file and a
 * rename), the summary line, and the paths refused before the run with exit 2.
 */
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceCli } from '../../cli/voice-kit.js';
import type { Profile } from '../../profile/types.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-profile-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('voice-kit conformance --write-profile', () => {
  it('writes the points the selected cases observed, private, and says how many', async () => {
    const file = join(dir, 'staging.profile.json');
    await writeFile(file, 'an older profile'); // replaced whole
    const lines: string[] = [];
    const code = await conformanceCli(
      [
        '--only',
        'list.cursor.unknown,general.open.*',
        '--report-dir',
        join(dir, 'r1'),
        '--write-profile',
        file,
      ],
      {},
      (l) => lines.push(l),
    );
    expect(code).toBe(0);
    expect(lines).toContain(`profile: 4 points written to ${file} (0 unsettled)`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
    expect(profile.kind).toBe('voice-kit-profile');
    expect(profile.observed?.by).toBe('conformance');
    expect(Object.keys(profile.points).sort()).toEqual([
      'general-errors/malformed-json',
      'general-errors/unknown-path',
      'general-errors/wrong-method',
      'list-errors/unknown-cursor',
    ]);
    expect(profile.points['general-errors/unknown-path']?.evidence?.[0]).toMatchObject({
      method: 'GET',
      path: '/v1/voice-kit-no-such-endpoint',
      status: 404,
      case: 'general.open.unknown-path',
    });
  });

  it.each([
    ['a folder', async (p: string) => mkdir(p), /is a folder/],
    ['a symbolic link', async (p: string) => symlink(join(dir, 'elsewhere.json'), p), /symbolic link/],
    ['a missing folder', async () => undefined, /does not exist/],
  ])('refuses %s with exit 2 before any case runs', async (_, make, message) => {
    const path = _ === 'a missing folder' ? join(dir, 'no', 'such', 'p.json') : join(dir, `bad-${_.length}`);
    await make(path);
    const lines: string[] = [];
    const code = await conformanceCli(['--only', 'envelope.*', '--write-profile', path], {}, (l) =>
      lines.push(l),
    );
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(message);
    expect(lines.join('\n')).not.toMatch(/cases against/);
  });
});
