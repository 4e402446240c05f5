import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, apiUpload, getQueryFn, isUnauthorizedError, serverMessageOr } from './api-client';

function stub(response: Response) {
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', mock);
  return mock;
}

describe('apiRequest', () => {
  it('turns a non-OK answer into "status: body text"', async () => {
    stub(
      new Response('{"code":"unauthorized","message":"Please sign in"}', { status: 401, statusText: 'Unauthorized' }),
    );
    const error = await apiRequest('GET', '/api/user').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: {"code":"unauthorized","message":"Please sign in"}');
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).serverMessage).toBe('Please sign in');
  });

  it('falls back to the status text when the body is empty', async () => {
    stub(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    await expect(apiRequest('POST', '/api/logout')).rejects.toThrow('500: Internal Server Error');
  });

  it('sends a JSON body and its content type only when there is a body', async () => {
    const mock = stub(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/login', { username: 'ada', password: 'secret' });
    const [, withBody] = mock.mock.calls[0];
    expect(withBody?.body).toBe('{"username":"ada","password":"secret"}');
    expect(withBody?.headers).toEqual({ 'Content-Type': 'application/json' });

    await apiRequest('POST', '/api/logout');
    const [, withoutBody] = mock.mock.calls[1];
    expect(withoutBody?.body).toBeUndefined();
    expect(withoutBody?.headers).toEqual({});
  });

  it('always sends credentials', async () => {
    const mock = stub(new Response('{}', { status: 200 }));
    await apiRequest('GET', '/api/alerts');
    await apiRequest('DELETE', '/api/alerts/1');
    await apiRequest('POST', '/api/register', {});
    for (const [, init] of mock.mock.calls) expect(init?.credentials).toBe('include');
  });
});

describe('apiUpload', () => {
  it('POSTs the file itself as the body, with its content type and credentials, and parses the JSON answer', async () => {
    const mock = stub(new Response('{"imported":1}', { status: 200 }));
    const file = new File(['<feedback/>'], 'report.xml');
    await expect(apiUpload('/api/dmarc/upload?filename=report.xml', file)).resolves.toEqual({ imported: 1 });
    const [url, init] = mock.mock.calls[0];
    expect(url).toBe('/api/dmarc/upload?filename=report.xml');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(file);
    expect(init?.headers).toEqual({ 'Content-Type': 'application/octet-stream' });
    expect(init?.credentials).toBe('include');
  });

  it('turns a refusal into an ApiError carrying the server message', async () => {
    stub(
      new Response('{"code":"payload_too_large","message":"The file is too large"}', {
        status: 413,
        statusText: 'Payload Too Large',
      }),
    );
    const error = await apiUpload('/api/dmarc/upload', new Blob(['x'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect((error as ApiError).serverMessage).toBe('The file is too large');
  });
});

describe('getQueryFn', () => {
  const context = (url: string) =>
    ({ queryKey: [url], signal: new AbortController().signal, meta: undefined }) as unknown as Parameters<
      ReturnType<typeof getQueryFn>
    >[0];

  it('GETs the first query-key element with credentials and parses JSON', async () => {
    const mock = stub(new Response('[{"id":1}]', { status: 200 }));
    await expect(getQueryFn({ on401: 'throw' })(context('/api/alerts'))).resolves.toEqual([{ id: 1 }]);
    expect(mock.mock.calls[0][0]).toBe('/api/alerts');
    expect(mock.mock.calls[0][1]?.credentials).toBe('include');
  });

  it('returns null on 401 when asked to, and throws otherwise', async () => {
    stub(new Response('nope', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn({ on401: 'returnNull' })(context('/api/user'))).resolves.toBeNull();
    stub(new Response('nope', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn({ on401: 'throw' })(context('/api/user'))).rejects.toThrow('401: nope');
  });
});

describe('isUnauthorizedError', () => {
  it('is true for status 401 or a message mentioning unauthorized', () => {
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized', ''))).toBe(true);
    expect(isUnauthorizedError(new Error('403: Unauthorized access'))).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, 'Forbidden', 'no'))).toBe(false);
    expect(isUnauthorizedError('401')).toBe(false);
  });
});

describe('serverMessageOr', () => {
  it('prefers the JSON message, then error, then plain text, then the fallback', () => {
    expect(serverMessageOr(new ApiError(409, 'Conflict', '{"message":"Username taken"}'), 'x')).toBe('Username taken');
    expect(serverMessageOr(new ApiError(400, 'Bad Request', '{"error":"Bad coupon"}'), 'x')).toBe('Bad coupon');
    expect(serverMessageOr(new ApiError(502, 'Bad Gateway', 'upstream down'), 'x')).toBe('upstream down');
    expect(serverMessageOr(new ApiError(500, 'Internal Server Error', ''), 'fallback')).toBe('fallback');
    expect(serverMessageOr(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});
