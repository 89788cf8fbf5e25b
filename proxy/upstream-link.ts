/**
 * The way to the upstream: its URL, one keep-alive agent, and a request to it for a path (the upstream's
 * path prefix put before it, Host its own). A hop-by-hop header never crosses (hop-by-hop.ts).
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { upstreamHeaders } from './hop-by-hop.js';
import { ProxySetupError } from './writable-dir.js';

export interface UpstreamLink {
  readonly url: URL;
  /** A request of `method` for `path` (origin-form) with the client's end-to-end headers. */
  request(method: string, path: string, client: IncomingMessage): ClientRequest;
  /** Closes the agent's idle sockets. */
  close(): void;
}

/** The link to `href`; a URL that is not http(s) is a `ProxySetupError`. */
export function upstreamLink(href: string): UpstreamLink {
  const url = URL.parse(href);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ProxySetupError(`the upstream must be an http: or https: URL, got ${href}`);
  const secure = url.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true });
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    url,
    request(method, path, client) {
      const headers = upstreamHeaders(client.headers, url.host);
      delete headers.expect; // this server already answered any 100-continue
      if (client.headers['transfer-encoding'] && client.headers['content-length'] === undefined)
        headers['transfer-encoding'] = 'chunked';
      return transport.request({
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || (secure ? 443 : 80),
        method,
        path: prefix + path,
        headers,
        agent,
      });
    },
    close: () => agent.destroy(),
  };
}
