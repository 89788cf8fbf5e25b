import type { IncomingMessage } from 'node:http';
import { controlAccessProblem } from '../../common/control-access.js';
import { type Failure, fail } from '../core/answer/envelope.js';
import { voiceAudioPath } from '../core/reference/signed-url.js';
import { controlPrefix } from '../core/request/target.js';
import { rawHeader } from './read-request.js';

/** The header that carries the control token on a mock that listens beyond loopback. */
export const controlTokenHeader = 'X-Mock-Control-Token';

/** The fewest characters a control token may have: a short one is guessed, an empty one is no token. */
export const controlTokenMinChars = 16;

/**
 * Why `token` cannot guard the control API, or undefined when it can: at least 16 characters, each a
 * visible ASCII character (a header value carries it; spaces at its ends would be trimmed away).
 *
 * @example controlTokenProblem(''); // 'is empty: give at least 16 characters, or leave it out'
 */
export function controlTokenProblem(token: string): string | undefined {
  if (token === '') return `is empty: give at least ${controlTokenMinChars} characters, or leave it out`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'may hold only visible ASCII characters (no spaces)';
  if (token.length < controlTokenMinChars)
    return `is ${token.length} characters; a control token needs at least ${controlTokenMinChars}`;
  return undefined;
}

/** What guards the control API of one server. */
export interface ControlGuard {
  /** The token a request must carry; undefined on a loopback-only mock. */
  readonly token: string | undefined;
  /**
   * The refusal of a control request, or undefined when it may go on. `needsToken` false checks only
   * Host and Origin: for the dashboard's page and files, which hold no state (its data comes from the
   * control API, which asks for the token).
   */
  check(req: IncomingMessage, path: string, needsToken?: boolean): Failure | undefined;
}

/**
 * The control API (`/__mock/`) can reset, read and rewrite the whole mock, so it answers only the mock's
 * own users: never a request a page of another site makes (a foreign `Origin`: a browser sends it on
 * every cross-origin fetch and form post), never one through a Host that is not the mock's address (a
 * DNS name other than localhost, as DNS rebinding uses), and on a mock listening beyond loopback only a
 * request that carries the control token. The voice_url audio under /__mock/voice-audio/ is for apps
 * and stays open (its signature guards it).
 *
 * @example
 * const guard = controlGuard('0.0.0.0', 'secret');
 * guard.check(req, '/__mock/reset'); // undefined, or the failure to answer
 */
export function controlGuard(boundHost: string, token: string | undefined): ControlGuard {
  return {
    token,
    check(req, path, needsToken = true) {
      const control = path.startsWith(controlPrefix) || path === '/__mock';
      if (!control || path.startsWith(voiceAudioPath)) return undefined;
      const problem = controlAccessProblem(
        boundHost,
        rawHeader(req.rawHeaders, 'host'),
        rawHeader(req.rawHeaders, 'origin'),
      );
      if (problem !== undefined) return fail('controlRefused', problem);
      if (needsToken && token !== undefined && rawHeader(req.rawHeaders, controlTokenHeader) !== token) {
        return fail('controlTokenMissing');
      }
      return undefined;
    },
  };
}
