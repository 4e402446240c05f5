const PASSWORD = 'bench password 1';

async function session(appUrl: string, path: string, body: object) {
  return fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl },
    body: JSON.stringify(body),
  });
}

const answer = async (res: Response) => ({
  cookie: res.headers.get('set-cookie')!.split(';')[0],
  userId: ((await res.json()) as { user: { id: number } }).user.id,
});

/** The bench's user, registered through the API as a customer signs up: its session cookie and id. */
export async function signUp(
  appUrl: string,
  username = `scale_${Date.now()}`,
): Promise<{ cookie: string; userId: number }> {
  const res = await session(appUrl, '/api/register', {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
  });
  if (res.status !== 200) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return answer(res);
}

/** A bench user filled by an earlier run (BENCH_REUSE), signed in again; undefined when there is none. */
export async function signIn(
  appUrl: string,
  username: string,
): Promise<{ cookie: string; userId: number } | undefined> {
  const res = await session(appUrl, '/api/login', { username, password: PASSWORD });
  return res.status === 200 ? answer(res) : undefined;
}
