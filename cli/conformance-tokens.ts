/**
 * The command line of `voice-kit conformance`, token by token, with node:util parseArgs in its lenient
 * mode so that every mistake can be named (its strict mode stops at the first, in its own words).
 */
import { parseArgs } from 'node:util';
import { didYouMean } from '../conformance/setup/nearest.js';
import { type FlagSpec, flagSpecs } from './conformance-flags.js';

/**
 * The flags as typed: flag name → its values in order. Unknown flags, stray arguments, missing or
 * unexpected values and repeated single-value flags are pushed onto `problems`.
 *
 * @example
 * readFlags(['--only', 'upload.*', '--only', 'list.*'], problems); // Map { 'only' => ['upload.*', 'list.*'] }
 */
export function readFlags(argv: readonly string[], problems: string[]): Map<string, string[]> {
  const options = Object.fromEntries(
    flagSpecs.map((f) => [
      f.name,
      {
        type: f.kind === 'boolean' ? ('boolean' as const) : ('string' as const),
        multiple: true,
        ...(f.name === 'help' ? { short: 'h' } : {}),
      },
    ]),
  );
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const known = flagSpecs.map((f) => `--${f.name}`);
  const given = new Map<string, string[]>();
  let afterUnknown = false;
  let terminated = false;
  for (const t of tokens) {
    if (t.kind === 'option-terminator') {
      terminated = true;
      continue;
    }
    if (t.kind === 'positional') {
      // The value of an unknown flag (`--base-ur http://…`) is not a second problem.
      if (terminated) problems.push(`arguments after "--" are not read: ${JSON.stringify(t.value)}`);
      else if (!afterUnknown)
        problems.push(
          `unexpected argument ${JSON.stringify(t.value)}${/^https?:/.test(t.value) ? ' (did you mean --base-url?)' : ''}`,
        );
      afterUnknown = false;
      continue;
    }
    afterUnknown = false;
    const spec = flagSpecs.find((f) => f.name === t.name);
    if (!spec) {
      afterUnknown = t.inlineValue !== true;
      problems.push(
        `unknown flag ${t.rawName}${didYouMean(t.rawName, known)}; known flags: ${known.join(', ')}`,
      );
      continue;
    }
    const problem = valueProblem(spec, t.rawName, t.value, t.inlineValue);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const values = given.get(spec.name) ?? [];
    if (spec.kind === 'string' && values.length > 0) problems.push(`${t.rawName} is given twice`);
    given.set(spec.name, [...values, t.value ?? 'true']);
  }
  return given;
}

function valueProblem(spec: FlagSpec, raw: string, value: string | undefined, inline: boolean | undefined) {
  if (spec.kind === 'boolean')
    return value === undefined ? undefined : `${raw} takes no value (got ${JSON.stringify(value)})`;
  if (value === undefined) return `${raw} needs a value`;
  // parseArgs takes the next argument whatever it is: `--base-url --api-key k` would test "--api-key".
  if (!inline && value.startsWith('--'))
    return `${raw} needs a value, got the flag ${value} (write ${raw}=VALUE for a value starting with "--")`;
  return undefined;
}
