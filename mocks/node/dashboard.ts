import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { packageFolder } from '../../common/package-folder.js';
import { rawHeader } from './read-request.js';

/** Where the dashboard's files are served: /__mock/dashboard/<file>. */
export const dashboardAssetPrefix = '/__mock/dashboard/';

/**
 * The built dashboard: `npm run build` puts it in the package's dist/dashboard/, whether this module
 * runs from the sources (mocks/node/dashboard.ts), from tsc's output (dist/mocks/node/) or from the
 * CLI's bundle (dist/bin/).
 */
const dashboardDir = fileURLToPath(new URL('dist/dashboard/', packageFolder(import.meta.url, 2)));

const types: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
};

/**
 * The page runs only its own script and style from this origin, talks only to this origin, and cannot
 * be framed (clickjacking a Reset button) or leak its URL (its fragment may hold the control token).
 */
const securityHeaders = [
  'Content-Security-Policy',
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options',
  'nosniff',
  'Referrer-Policy',
  'no-referrer',
  'X-Frame-Options',
  'DENY',
  'Cache-Control',
  'no-cache',
];

/** The q-value an Accept header gives a media type (its most specific matching range wins). */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let q = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === type ? 3 : range === `${major}/*` ? 2 : range === '*/*' ? 1 : 0;
    if (specificity <= best || specificity === 0) continue;
    best = specificity;
    const given = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q = given === undefined ? 1 : Number(given.slice(2)) || 0;
  }
  return q;
}

/**
 * Whether a request for GET /__mock/ wants the page rather than the JSON index: only when its Accept
 * prefers text/html over application/json (a browser's navigation does; curl's and fetch's `*` / `*`
 * do not, so scripts keep the JSON they always got).
 *
 * @example
 * prefersHtml('text/html,application/xhtml+xml,*' + '/*;q=0.8'); // true
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  return quality(accept, 'text/html') > quality(accept, 'application/json');
}

/** The dashboard's files, read once per server (a few tens of kB), or why they cannot be. */
export function dashboardFiles(): (file: string) => Uint8Array | undefined {
  const kept = new Map<string, Uint8Array | undefined>();
  return (file) => {
    if (!Object.hasOwn(types, file)) return undefined;
    if (!kept.has(file)) {
      let bytes: Uint8Array | undefined;
      try {
        bytes = readFileSync(`${dashboardDir}${file}`);
      } catch {
        // not built
      }
      kept.set(file, bytes);
    }
    return kept.get(file);
  };
}

const missing = new TextEncoder().encode(
  'The voice-kit dashboard is not built: run `npm run build` (dist/dashboard/ is missing).\n',
);

/**
 * Serves the page (`GET /__mock/` asked for as HTML) or one of its files (`/__mock/dashboard/<file>`).
 * These hold no state of the mock, so they need no control token; everything they show comes from
 * the control API, which does.
 */
export function serveDashboard(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  files: (file: string) => Uint8Array | undefined,
): void {
  const file = path.startsWith(dashboardAssetPrefix) ? path.slice(dashboardAssetPrefix.length) : 'index.html';
  const bytes = files(file);
  if (!bytes) {
    const known = Object.hasOwn(types, file);
    const body = known ? missing : new TextEncoder().encode(`no dashboard file ${file}\n`);
    res.writeHead(known ? 503 : 404, [
      ...securityHeaders,
      'Content-Type',
      'text/plain; charset=utf-8',
      'Content-Length',
      String(body.byteLength),
    ]);
    res.end(body);
    return;
  }
  const type = types[file] as string;
  res.writeHead(200, [...securityHeaders, 'Content-Type', type, 'Content-Length', String(bytes.byteLength)]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Whether a request is for the page or its files, as opposed to the control API's JSON. */
export function isDashboardRequest(req: IncomingMessage, path: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path.startsWith(dashboardAssetPrefix)) return true;
  return (path === '/__mock/' || path === '/__mock') && prefersHtml(rawHeader(req.rawHeaders, 'accept'));
}
