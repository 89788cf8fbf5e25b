import { type HttpHandler, http as mswHttp } from 'msw';
import { createMockService, type MockService } from './core/service.js';

/** Options of the MSW handlers. */
export interface HandlerOptions {
  /** Where the client under test sends its requests, e.g. https://api.example.test (no trailing slash). */
  baseUrl: string;
  /** The service answering; default a fresh in-memory one. Pass yours to reset or inspect it. */
  service?: MockService;
}

/**
 * The part of MSW's `http` namespace the handlers are built with. MSW 2's and MSW 3's `http` both fit;
 * `Handler` is the handler type of the MSW it comes from.
 */
export interface HttpNamespace<Handler> {
  all(path: string, resolver: (info: { request: Request }) => Response | Promise<Response>): Handler;
}

/**
 * MSW request handlers backed by the same stateful mock as the Node server.
 *
 * They are built with the `http` of the `msw` this package resolves (MSW 2 or 3, whichever is
 * installed). Where the MSW your `setupServer` comes from is another copy, e.g. two majors side by side,
 * pass its namespace: `createHandlers({ baseUrl, http })` with `import { http } from 'msw'`.
 *
 * @example
 * const service = createMockService();
 * const server = setupServer(...createHandlers({ baseUrl: 'https://voice.test', service }));
 * server.listen(); // client code now talks to the mock
 */
export function createHandlers(options: HandlerOptions): HttpHandler[];
export function createHandlers<Handler>(
  options: HandlerOptions & { http: HttpNamespace<Handler> },
): Handler[];
export function createHandlers({
  baseUrl,
  service = createMockService(),
  http = mswHttp,
}: HandlerOptions & { http?: HttpNamespace<unknown> }): unknown[] {
  const base = baseUrl.replace(/\/+$/, '');
  return [http.all(`${base}/*`, ({ request }) => service.fetch(request))];
}
