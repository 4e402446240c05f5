import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlert } from './alerts.repo';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('alerts', () => {
  it('lists only the signed-in user’s alerts, newest first, and marks them read', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const older = await createAlert(t.database.db, {
      userId: alice.user.id,
      type: 'dns_changes',
      severity: 'warning',
      title: 'SPF record changed',
      message: 'example.com: SPF changed',
      domain: 'example.com',
      metadata: { before: 'v=spf1 -all', after: 'v=spf1 include:_spf.example.net -all' },
    });
    const newer = await createAlert(t.database.db, {
      userId: alice.user.id,
      type: 'blacklist_detection',
      severity: 'critical',
      title: 'Listed',
      message: '192.0.2.1 listed',
    });
    await createAlert(t.database.db, { userId: bob.user.id, type: 'spam', severity: 'info', title: 'Bob only', message: 'x' });

    const list = await alice.client.get('/api/alerts');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { id: number }) => a.id)).toEqual([newer.id, older.id]);
    expect(list.json()[1]).toMatchObject({ domain: 'example.com', isRead: false, metadata: { before: 'v=spf1 -all' } });

    const read = await alice.client.patch(`/api/alerts/${older.id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json().isRead).toBe(true);
    expect((await alice.client.get('/api/alerts')).json().filter((a: { isRead: boolean }) => !a.isRead)).toHaveLength(1);
  });

  it('answers 404 for another user’s alert and leaves it untouched', async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const alert = await createAlert(t.database.db, { userId: owner.user.id, type: 'reputation', severity: 'error', title: 'Mine', message: 'mine' });
    expect((await intruder.client.patch(`/api/alerts/${alert.id}/read`)).statusCode).toBe(404);
    expect((await intruder.client.delete(`/api/alerts/${alert.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/alerts')).json()).toEqual([expect.objectContaining({ id: alert.id, isRead: false })]);

    const intrudersAlert = await createAlert(t.database.db, {
      userId: intruder.user.id,
      type: 'reputation',
      severity: 'info',
      title: 'Theirs',
      message: 'theirs',
    });
    const deleted = await owner.client.delete(`/api/alerts/${alert.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await owner.client.get('/api/alerts')).json()).toEqual([]);
    expect((await owner.client.delete(`/api/alerts/${alert.id}`)).statusCode).toBe(404);
    expect((await intruder.client.get('/api/alerts')).json()).toEqual([expect.objectContaining({ id: intrudersAlert.id })]);
  });

  it('refuses signed-out callers and bad ids', async () => {
    expect((await new TestClient(t.app).get('/api/alerts')).statusCode).toBe(401);
    const { client } = await signUp(t.app);
    const bad = await client.patch('/api/alerts/abc/read');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/number/);
  });
});
