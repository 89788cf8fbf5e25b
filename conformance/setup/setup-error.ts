/**
 * setup/: what a run needs before its first case, and the checks that stop it before then: the options
 * (options-check.ts, run-options.ts, only-patterns.ts), the reference recording (reference-check.ts,
 * reference-server.ts), the kit's fixtures (fixture-source.ts), the target (preflight.ts, the embedded
 * mock, kit-mock.ts), and this error, which every one of those checks throws.
 * May import toolkit/ (types of the run state), types.ts, openapi/, fixtures/ and mocks/; never run/,
 * cases/, reporters/ or cli/.
 */

/**
 * A run that cannot start as asked: an unknown option, keys without a target, an `only` pattern that
 * matches nothing, a reference recording the kit would refuse, a base URL that does not answer. Thrown
 * before any case runs, so a mistake never ends as a green run that tested nothing (or the wrong thing).
 * The CLI turns it into exit code 2 and names the flag instead of the option.
 *
 * @example
 * try { await runConformance(options); } catch (e) { if (e instanceof ConformanceSetupError) console.error(e.option, e.detail); }
 */
export class ConformanceSetupError extends Error {
  override readonly name = 'ConformanceSetupError';

  constructor(
    /** The option at fault, as `runConformance` names it (`baseUrl`, `only`, `referenceAudio`...). */
    readonly option: string,
    /** What is wrong, starting with the value when it helps (`voice.wav: 61.0 s long; ...`). */
    readonly detail: string,
  ) {
    super(`${option} ${detail}`);
  }
}
