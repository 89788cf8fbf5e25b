/**
 * Edit distance (insertions, deletions, substitutions, and swaps of two neighbours, the commonest
 * typo: `flca` is one edit from `flac`), for "did you mean" hints.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/**
 * The candidates closest to `input` (case-insensitive), nearest first; at most `count`, and only those
 * within `maxDistance` edits when it is given.
 *
 * @example
 * nearest('--base-ur', ['--base-url', '--api-key'], { maxDistance: 3 }); // ['--base-url']
 */
export function nearest(
  input: string,
  candidates: readonly string[],
  opts: { readonly count?: number; readonly maxDistance?: number } = {},
): string[] {
  const low = input.toLowerCase();
  return candidates
    .map((c) => ({ c, d: editDistance(low, c.toLowerCase()) }))
    .filter(({ d }) => opts.maxDistance === undefined || d <= opts.maxDistance)
    .sort((x, y) => x.d - y.d)
    .slice(0, opts.count ?? 1)
    .map(({ c }) => c);
}

/**
 * ` (did you mean --base-url?)` for a near miss within three edits, else nothing.
 *
 * @example
 * `unknown flag --base-ur${didYouMean('--base-ur', ['--base-url'])}`; // 'unknown flag --base-ur (did you mean --base-url?)'
 */
export function didYouMean(input: string, known: readonly string[]): string {
  const [near] = nearest(input, known, { maxDistance: 3 });
  return near ? ` (did you mean ${near}?)` : '';
}
