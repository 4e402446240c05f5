import type { QueryFunction } from '@tanstack/react-query';

/**
 * A non-OK HTTP answer. The message keeps the spec's format (part 1, section 8):
 * `${status}: ${body text or status text}`; status and body are kept so callers need not re-parse.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The human sentence the server sent: `message` (or `error`) of a JSON body, else the plain text. */
  get serverMessage(): string | undefined {
    if (!this.body) return undefined;
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object') {
        const { message, error } = parsed as { message?: unknown; error?: unknown };
        if (typeof message === 'string' && message) return message;
        if (typeof error === 'string' && error) return error;
        return undefined;
      }
    } catch {
      // Not JSON: a proxy or the server answered in plain text, which is readable as it is.
    }
    return this.body;
  }
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, text);
}

/** Every call sends the session cookie; a JSON body and its content type only when there is a body. */
export async function apiRequest(method: string, url: string, body?: unknown): Promise<Response> {
  const hasBody = body !== undefined;
  const res = await fetch(url, {
    method,
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res;
}

/** apiRequest + JSON body, for the common case of a mutation that reads the answer. */
export async function apiJson(method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await apiRequest(method, url, body);
  return res.json();
}

/**
 * POSTs a file as the raw request body (no JSON, no multipart): the upload endpoints read the bytes
 * as they are and tell the format from them. Answers the parsed JSON body.
 */
export async function apiUpload(url: string, body: Blob, contentType = 'application/octet-stream'): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return res.json();
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default query fetcher: GET the first element of the query key and parse JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

export function isUnauthorizedError(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) return true;
  return error instanceof Error && /unauthorized/i.test(error.message);
}

/** The server's own words when it gave some, else the caller's fallback. */
export function serverMessageOr(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}
