/**
 * The commonest slip with npm scripts: `npm start --port 21050`, the `--` forgotten. npm reads every
 * flag before `--` as its own config: it warns `Unknown cli config "--port"`, sets the variable
 * `npm_config_port` (to `true`, or to the value of `--port=21050`) and passes `21050` on as a lone
 * argument. The mock would then start on 4010 (or VOICE_KIT_PORT) as if no port were asked for. This
 * finds the flags npm took, from those variables, and the command line the user meant.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The npm scripts that run the voice-kit command (package.json), by npm_lifecycle_event. */
const scriptOf: Readonly<Record<string, string>> = {
  start: 'npm start',
  conformance: 'npm run conformance',
  proxy: 'npm run proxy',
};

/**
 * npm's own configs a flag of ours shares a name with: `npm_config_include` may come from an .npmrc,
 * so it proves nothing.
 */
const npmOwn = new Set(['include', 'only', 'help', 'version']);

/** A flag npm took, as the user typed it. */
interface Taken {
  readonly flag: string;
  readonly value: string | undefined;
}

/**
 * The flags of `flags` (name → takes a value) that npm took as its configs, in the order declared;
 * `args` are the stray arguments the command got, which fill the values of those set to `true`.
 */
function takenFlags(flags: ReadonlyMap<string, boolean>, env: Env, args: string[]): Taken[] {
  const taken: Taken[] = [];
  for (const [name, takesValue] of flags) {
    if (npmOwn.has(name)) continue;
    // npm reads `--no-cors` as its config `cors` set to false.
    const negated = name.startsWith('no-');
    const set = env[`npm_config_${name.replace(/^no-/, '').replace(/-/g, '_')}`];
    if (set === undefined || (negated && set !== 'false')) continue;
    if (!takesValue) taken.push({ flag: `--${name}`, value: undefined });
    else if (set !== 'true' && set !== '') taken.push({ flag: `--${name}`, value: set });
    else taken.push({ flag: `--${name}`, value: args.shift() });
  }
  return taken;
}

/** `21050` as a shell word: quoted when it holds anything but safe characters. */
const word = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The problem to report when npm ate flags of the command, or a lone number stands where `--port N`
 * was meant; undefined when the command line is as meant.
 *
 * @example
 * npmSlip('mock', new Map([['port', true]]), ['21050'], { npm_lifecycle_event: 'start', npm_config_port: 'true' });
 * // 'npm took --port as its own config (the "--" is missing): did you mean: npm start -- --port 21050'
 */
export function npmSlip(
  command: string,
  flags: ReadonlyMap<string, boolean>,
  args: readonly string[],
  env: Env,
): string | undefined {
  const script = scriptOf[env.npm_lifecycle_event ?? ''];
  const stray = [...args];
  const taken = script ? takenFlags(flags, env, stray) : [];
  if (taken.length > 0) {
    const meant = taken.flatMap((t) => (t.value === undefined ? [t.flag] : [t.flag, word(t.value)]));
    const names = taken.map((t) => t.flag).join(', ');
    return `npm took ${names} as its own config (the "--" is missing): did you mean: ${script} -- ${[...meant, ...stray.map(word)].join(' ')}`;
  }
  // `voice-kit mock 21050`, or `npm start 21050`: a port given without its flag.
  const lone = args.length === 1 && /^\d{1,5}$/.test(args[0] ?? '') && flags.get('port') === true;
  if (!lone) return undefined;
  const prefix = script ? `${script} --` : `voice-kit ${command}`;
  return `a lone number is not read as the port: did you mean: ${prefix} --port ${args[0]}`;
}
