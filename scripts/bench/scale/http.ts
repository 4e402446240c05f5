/** The bench's user, registered through the API as a customer signs up: its session cookie and id. */
export async function signUp(appUrl: string): Promise<{ cookie: string; userId: number }> {
  const stamp = Date.now();
  const res = await fetch(`${appUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl },
    body: JSON.stringify({
      username: `scale_${stamp}`,
      email: `scale_${stamp}@example.com`,
      password: 'bench password 1',
    }),
  });
  if (res.status !== 200) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0];
  const { user } = (await res.json()) as { user: { id: number } };
  return { cookie, userId: user.id };
}
