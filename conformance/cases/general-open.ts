/**
 * General errors the spec leaves open (`general-errors`): what a body that is not JSON, a path no
 * endpoint has and a method an endpoint does not take are answered with. Observed, never failed; the
 * run's profile records each answer's status and code.
 */
import { asEnvelope } from '../../judge/envelope.js';
import type { ConformanceCase } from '../toolkit/context.js';
import type { Exchange } from '../toolkit/http.js';

const outcome = (ex: Exchange) =>
  `HTTP ${ex.status}, error_code ${asEnvelope(ex.json)?.error_code ?? 'none'}`;

const cases: ConformanceCase[] = [
  {
    id: 'general.open.malformed-json',
    section: '§4.5, §7.3',
    severity: 'observe',
    title: 'what a synthesis whose body is not JSON (sent as application/json) is answered with',
    openQuestion: 'general-errors',
    async run(ctx) {
      const ex = await ctx.call({
        op: 'synthesizeSpeech',
        method: 'POST',
        path: '/v1/text-to-speech',
        body: '{"generate_text": "Hello',
        headers: { 'content-type': 'application/json' },
        probes: 'general-errors/malformed-json',
      });
      ctx.observe('general-errors', `a body that is not JSON: ${outcome(ex)}`);
    },
  },
  {
    id: 'general.open.unknown-path',
    section: '§4, §9',
    severity: 'observe',
    title: 'what a path no endpoint has is answered with',
    openQuestion: 'general-errors',
    async run(ctx) {
      const ex = await ctx.call({
        op: null,
        method: 'GET',
        path: '/v1/voice-kit-no-such-endpoint',
        probes: 'general-errors/unknown-path',
      });
      ctx.observe('general-errors', `GET of an unknown path: ${outcome(ex)}`);
    },
  },
  {
    id: 'general.open.wrong-method',
    section: '§4.3',
    severity: 'observe',
    title: 'what an endpoint asked with a method it does not take (PUT /v1/voice/list) is answered with',
    openQuestion: 'general-errors',
    async run(ctx) {
      const ex = await ctx.call({
        op: null,
        method: 'PUT',
        path: '/v1/voice/list',
        probes: 'general-errors/wrong-method',
      });
      ctx.observe('general-errors', `PUT /v1/voice/list: ${outcome(ex)}`);
    },
  },
];

export const generalOpenCases: ConformanceCase[] = cases;
