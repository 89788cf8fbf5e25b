import { type HttpHandler, http } from 'msw';
import { createMockService, type MockService } from './core/service.js';

/** Options of the MSW handlers. */
export interface HandlerOptions {
  /** Where the client under test sends its requests, e.g. https://api.example.test (no trailing slash). */
  baseUrl: string;
  /** The service answering; default a fresh in-memory one. Pass yours to reset or inspect it. */
  service?: MockService;
}

/**
 * MSW request handlers backed by the same stateful mock as the Node server.
 *
 * @example
 * const service = createMockService();
 * const server = setupServer(...createHandlers({ baseUrl: 'https://voice.test', service }));
 * server.listen(); // client code now talks to the mock
 */
export function createHandlers({ baseUrl, service = createMockService() }: HandlerOptions): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  return [http.all(`${base}/*`, ({ request }) => service.fetch(request))];
}
