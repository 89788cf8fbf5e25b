/** The header the control API asks for on a mock that listens beyond loopback. */
export const tokenHeader = 'X-Mock-Control-Token';
/** Where the page keeps the token: this tab only, gone when it closes. */
export const tokenStorageKey = 'voice-kit.control-token';

/** The slice of Web Storage the page uses (sessionStorage in the browser, a stub in tests). */
export type TokenStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Moves a token given in the address's fragment (`/__mock/#token=…`, as the start line prints it) into
 * the tab's storage, and answers the fragment to leave in the address bar (without the token, so it is
 * not bookmarked or shared). A fragment never reaches a server or its logs.
 *
 * @example
 * const rest = takeToken(location.hash, sessionStorage); // '' after '#token=abc'
 */
export function takeToken(hash: string, store: TokenStore): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  if (token === null) return hash;
  if (token === '') store.removeItem(tokenStorageKey);
  else store.setItem(tokenStorageKey, token);
  params.delete('token');
  const rest = params.toString();
  return rest === '' ? '' : `#${rest}`;
}

/** The control API's refusal, with the envelope's code and message. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }

  /** True when the mock asks for its control token (401, or a token it does not know). */
  get needsToken(): boolean {
    return this.status === 401;
  }
}

/** Talks to the control API of the mock that served the page, with the tab's token when it has one. */
export class ControlClient {
  constructor(
    private readonly store: TokenStore,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  get token(): string | null {
    return this.store.getItem(tokenStorageKey);
  }

  setToken(token: string): void {
    if (token === '') this.store.removeItem(tokenStorageKey);
    else this.store.setItem(tokenStorageKey, token);
  }

  /** The answer as it came (audio, a snapshot file); refusals still throw. */
  async raw(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const token = this.token;
    if (token !== null) headers.set(tokenHeader, token);
    // JSON, also for GET /__mock/ (a page's fetch asks for */* anyway, which gets the index).
    if (!headers.has('Accept')) headers.set('Accept', 'application/json, */*;q=0.5');
    const response = await this.fetcher(path, { ...init, headers, cache: 'no-store' });
    if (response.ok) return response;
    const text = await response.text();
    let code: number | null = null;
    let message = `HTTP ${response.status}`;
    try {
      const body = JSON.parse(text) as { error_code?: number; error_message?: string };
      code = typeof body.error_code === 'number' ? body.error_code : null;
      message = body.error_message || message;
    } catch {
      if (text) message = `${message}: ${text.slice(0, 200)}`;
    }
    throw new ControlError(response.status, code, message);
  }

  /** The `data` of a JSON envelope. */
  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await this.raw(path, init);
    const body = (await response.json()) as { succeed?: boolean; data?: T };
    return body.data as T;
  }

  /** POSTs JSON (or nothing) and answers the envelope's `data`. */
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.json<T>(path, {
      method: 'POST',
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
  }
}
