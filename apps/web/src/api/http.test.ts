import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, changingSession, endpoint, setSessionLostHandler } from './http.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  setSessionLostHandler(() => {});
});

const list = endpoint({ method: 'GET', path: '/divisions', permission: 'signedIn' });
const end = endpoint({ method: 'POST', path: '/auth/impersonation/end', permission: 'public' });
const expired = () => Response.json({ error: { code: 'UNAUTHENTICATED', message: '' } }, { status: 401 });

/** A fetch whose answer to `/api/v1/divisions` waits until `answer` is called; the refresh is refused. */
function stubServer() {
  let answer: (res: Response) => void = () => {};
  const fetch = vi.fn(async (url: string) => {
    if (url === '/api/v1/divisions') return new Promise<Response>((resolve) => (answer = resolve));
    if (url === '/api/v1/auth/refresh') return expired();
    return Response.json({ ok: true });
  });
  vi.stubGlobal('fetch', fetch);
  return { answer: (res: Response) => answer(res), urls: () => fetch.mock.calls.map(([u]) => u) };
}

/** The page's request, sent and on its way (the server has not answered), with a lost-session handler to watch. */
async function requestOnItsWay() {
  const server = stubServer();
  const lost = vi.fn();
  setSessionLostHandler(lost);
  const pending = call(list);
  await vi.waitFor(() => expect(server.urls()).toEqual(['/api/v1/divisions']));
  return { server, lost, pending };
}

describe('a 401 around a change of session', () => {
  it('renews, and ends the stored session when the renewal is refused, outside a change', async () => {
    const { server, lost, pending } = await requestOnItsWay();
    server.answer(expired());
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    expect(server.urls()).toEqual(['/api/v1/divisions', '/api/v1/auth/refresh']);
    expect(lost).toHaveBeenCalledOnce();
  });

  it('neither renews nor ends the session for a request sent before the view as another user ended', async () => {
    // The page's request is on its way when the operator goes back; the server answers it after the end.
    const { server, lost, pending } = await requestOnItsWay();
    await changingSession(() => call(end));
    server.answer(expired());
    await expect(pending).rejects.toMatchObject({ status: 401 });
    expect(server.urls()).toEqual(['/api/v1/divisions', '/api/v1/auth/impersonation/end']);
    expect(lost).not.toHaveBeenCalled();
  });

  it('neither renews nor ends the session for a 401 that arrives while the change is under way', async () => {
    const { server, lost, pending } = await requestOnItsWay();
    await changingSession(async () => {
      server.answer(expired());
      await expect(pending).rejects.toMatchObject({ status: 401 });
      return call(end);
    });
    expect(server.urls()).toEqual(['/api/v1/divisions', '/api/v1/auth/impersonation/end']);
    expect(lost).not.toHaveBeenCalled();
  });
});
