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
    await createAlert(t.database.db, {
      userId: bob.user.id,
      type: 'spam',
      severity: 'info',
      title: 'Bob only',
      message: 'x',
    });

    const list = await alice.client.get('/api/alerts');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((a: { id: number }) => a.id)).toEqual([newer.id, older.id]);
    expect(list.json()[1]).toMatchObject({ domain: 'example.com', isRead: false, metadata: { before: 'v=spf1 -all' } });

    const read = await alice.client.patch(`/api/alerts/${older.id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json().isRead).toBe(true);
    expect((await alice.client.get('/api/alerts')).json().filter((a: { isRead: boolean }) => !a.isRead)).toHaveLength(
      1,
    );
  });

  it('answers 404 for another user’s alert and leaves it untouched', async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const alert = await createAlert(t.database.db, {
      userId: owner.user.id,
      type: 'reputation',
      severity: 'error',
      title: 'Mine',
      message: 'mine',
    });
    expect((await intruder.client.patch(`/api/alerts/${alert.id}/read`)).statusCode).toBe(404);
    expect((await intruder.client.delete(`/api/alerts/${alert.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/alerts')).json()).toEqual([
      expect.objectContaining({ id: alert.id, isRead: false }),
    ]);

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
    expect((await intruder.client.get('/api/alerts')).json()).toEqual([
      expect.objectContaining({ id: intrudersAlert.id }),
    ]);
  });

  it('answers one alert by id, owner-scoped, with its history from the moment it was raised', async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const alert = await createAlert(t.database.db, {
      userId: owner.user.id,
      type: 'blacklist_detection',
      severity: 'critical',
      title: 'Listed on Spamhaus ZEN',
      message: '192.0.2.7 is listed on Spamhaus ZEN',
      metadata: { ipAddress: '192.0.2.7', listedCount: 1 },
    });
    expect(alert).toMatchObject({ updatedAt: null, resolvedAt: null, acknowledgedAt: null });
    expect(alert.history).toEqual([
      { at: alert.createdAt, event: 'raised', message: '192.0.2.7 is listed on Spamhaus ZEN' },
    ]);

    const res = await owner.client.get(`/api/alerts/${alert.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(alert);
    const other = await intruder.client.get(`/api/alerts/${alert.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ code: 'not_found', message: 'Alert not found' });
    expect((await intruder.client.post(`/api/alerts/${alert.id}/acknowledge`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/alerts/2147483647')).json()).toEqual({
      code: 'not_found',
      message: 'Alert not found',
    });
    expect((await owner.client.get('/api/alerts')).json()).toEqual([alert]);
  });

  it('acknowledges once: read, acknowledgedAt and one history line; marking read writes its line once', async () => {
    const { client, user } = await signUp(t.app);
    const alert = await createAlert(t.database.db, {
      userId: user.id,
      type: 'bounce',
      severity: 'warning',
      title: 'Bounces up',
      message: 'Bounce rate 6%',
    });

    const read = await client.patch(`/api/alerts/${alert.id}/read`);
    expect(read.json().history.map((h: { event: string }) => h.event)).toEqual(['raised', 'read']);
    expect(read.json().history[1]).toEqual({ at: expect.any(String), event: 'read', message: 'Marked as read' });
    const readAgain = await client.patch(`/api/alerts/${alert.id}/read`);
    expect(readAgain.json().history).toEqual(read.json().history);

    const acked = await client.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(acked.statusCode).toBe(200);
    const body = acked.json();
    expect(body).toMatchObject({ id: alert.id, isRead: true, acknowledgedAt: expect.any(String) });
    expect(body.history.map((h: { event: string }) => h.event)).toEqual(['raised', 'read', 'acknowledged']);
    expect(body.history[2]).toEqual({ at: body.acknowledgedAt, event: 'acknowledged', message: 'Acknowledged' });
    expect(Date.parse(body.acknowledgedAt)).toBeGreaterThanOrEqual(Date.parse(alert.createdAt));

    const again = await client.post(`/api/alerts/${alert.id}/acknowledge`);
    expect(again.json()).toEqual(body);
    expect((await client.get(`/api/alerts/${alert.id}`)).json()).toEqual(body);

    // Acknowledging an unread alert reads it too.
    const unread = await createAlert(t.database.db, {
      userId: user.id,
      type: 'spam',
      severity: 'info',
      title: 'Complaints',
      message: 'Complaints 0.4%',
    });
    const ackUnread = await client.post(`/api/alerts/${unread.id}/acknowledge`);
    expect(ackUnread.json()).toMatchObject({ isRead: true, history: [{ event: 'raised' }, { event: 'acknowledged' }] });
    expect((await client.get('/api/alerts')).json().filter((a: { isRead: boolean }) => !a.isRead)).toEqual([]);
  });

  it('refuses signed-out callers and bad ids', async () => {
    expect((await new TestClient(t.app).get('/api/alerts')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/alerts/1')).statusCode).toBe(401);
    expect((await new TestClient(t.app).post('/api/alerts/1/acknowledge')).statusCode).toBe(401);
    const { client } = await signUp(t.app);
    for (const bad of [
      await client.patch('/api/alerts/abc/read'),
      await client.get('/api/alerts/abc'),
      await client.post('/api/alerts/0/acknowledge'),
    ]) {
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^Alert id must be/);
    }
  });
});
