/**
 * The way to the upstream: its URL, one keep-alive agent, and a request to it for a path (the upstream's
 * path prefix put before it, Host its own). A hop-by-hop header never crosses (hop-by-hop.ts).
 */
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { versionPrefixProblem } from '../common/version-prefix.js';
import { upstreamHeaders } from './hop-by-hop.js';
import { ProxySetupError } from './writable-dir.js';

export interface UpstreamLink {
  readonly url: URL;
  /** A request of `method` for `path` (origin-form) with the client's end-to-end headers. */
  request(method: string, path: string, client: IncomingMessage): ClientRequest;
  /** Why a connection to the upstream could not be opened within `timeoutMs`; undefined when it could. */
  probe(timeoutMs: number): Promise<string | undefined>;
  /** Closes the agent's idle sockets. */
  close(): void;
}

/** The link to `href`; a URL that is not http(s), or that ends in `/v1`, is a `ProxySetupError`. */
export function upstreamLink(href: string): UpstreamLink {
  const url = URL.parse(href);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ProxySetupError(`the upstream must be an http: or https: URL, got ${href}`);
  const versioned = versionPrefixProblem(href);
  if (versioned) throw new ProxySetupError(`the upstream ${versioned}`);
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
    probe: (timeoutMs) => probe(url, secure ? 443 : 80, timeoutMs),
    close: () => agent.destroy(),
  };
}

/** Opens a TCP connection to the upstream's host and port and closes it at once. */
function probe(url: URL, defaultPort: number, timeoutMs: number): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || defaultPort);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done(`no connection to ${url.host} within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}
