import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingCoupons } from '../server/platform/db/schema/index';
import type { ConnectionSettings } from '../server/platform/db/client';
import { createTestApp, signUp, type TestApp } from '../server/test/test-app';
import { runCoupons } from './coupons';

// `npm run coupons`: the operator's coupons of self-hosted billing (ADR 033), on the app's database.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const coupons = (...argv: string[]) => runCoupons(t.database.db, argv);

/** The test database as a DATABASE_URL, for the command run as an operator runs it. */
function databaseUrl(connection: ConnectionSettings): string {
  if (connection.connectionString) return connection.connectionString;
  const url = new URL(
    `postgres://${encodeURIComponent(connection.user ?? '')}:${encodeURIComponent(connection.password ?? '')}@localhost/${connection.database}`,
  );
  const host = connection.host ?? 'localhost';
  // A socket directory is given as ?host=, which pg reads.
  if (host.startsWith('/')) url.searchParams.set('host', host);
  else url.hostname = host;
  if (connection.port) url.port = String(connection.port);
  return url.toString();
}

describe('npm run coupons', () => {
  it('adds, lists and disables coupons that the pricing page then honours or refuses', async () => {
    expect(await coupons('list')).toBe('No coupons yet.');
    expect(await coupons('add', 'LAUNCH-25', '--percent', '25', '--max', '3', '--until', '2999-06-30')).toBe(
      'Added LAUNCH-25\t25% off\t0/3 redeemed\tuntil 2999-06-30T00:00:00.000Z',
    );
    expect(await coupons('add', 'TENNER', '--amount', '10')).toBe('Added TENNER\t$10.00 off\t0 redeemed\tno end');
    expect((await coupons('list')).split('\n')).toEqual([
      'LAUNCH-25\t25% off\t0/3 redeemed\tuntil 2999-06-30T00:00:00.000Z',
      'TENNER\t$10.00 off\t0 redeemed\tno end',
    ]);

    const { client } = await signUp(t.app);
    expect(
      (await client.post('/api/apply-coupon', { couponCode: 'launch-25', planId: 'professional' })).json().discount,
    ).toBe(25);
    expect(await coupons('disable', 'launch-25')).toMatch(
      /^Disabled LAUNCH-25\t25% off\t0\/3 redeemed\tuntil 2999-06-30T00:00:00.000Z\tdisabled \d{4}-/,
    );
    expect(
      (await client.post('/api/apply-coupon', { couponCode: 'LAUNCH-25', planId: 'professional' })).json().message,
    ).toBe('Invalid coupon code');
  });

  it('refuses what is not a coupon, and keeps the table as it was', async () => {
    const before = await t.database.db.select().from(billingCoupons);
    await expect(coupons('add', 'NOTHING')).rejects.toThrow('Give either --percent or --amount');
    await expect(coupons('add', 'BOTH', '--percent', '5', '--amount', '5')).rejects.toThrow(
      'Give either --percent or --amount',
    );
    await expect(coupons('add', 'TOOMUCH', '--percent', '120')).rejects.toThrow(
      '--percent must be more than 0 and at most 100',
    );
    await expect(coupons('add', 'FRACTION', '--amount', '1.005')).rejects.toThrow('--amount has at most two decimals');
    await expect(coupons('add', 'HALF', '--percent', '50', '--max', '0')).rejects.toThrow(
      '--max must be a whole number',
    );
    await expect(coupons('add', 'SOON', '--percent', '50', '--until', 'next tuesday')).rejects.toThrow(
      '--until must be a date such as 2027-01-01',
    );
    await expect(coupons('add', 'has space', '--percent', '5')).rejects.toThrow('letters, digits and dashes');
    await expect(coupons('add', 'tenner', '--percent', '5')).rejects.toThrow('A coupon tenner exists already');
    await expect(coupons('disable', 'NOSUCH')).rejects.toThrow('No coupon NOSUCH');
    await expect(coupons('remove', 'TENNER')).rejects.toThrow('Unknown command "remove"');
    await expect(coupons('add', 'X', '--percentage', '5')).rejects.toThrow(/Unknown option '--percentage'/);
    expect(await t.database.db.select().from(billingCoupons)).toEqual(before);
  });

  it('runs as the operator runs it, on DATABASE_URL', async () => {
    const run = promisify(execFile);
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl(t.database.connection),
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-coupons-')),
      LOG_LEVEL: 'silent',
    };
    const tsx = path.resolve('node_modules/.bin/tsx');
    const added = await run(
      tsx,
      ['scripts/coupons.ts', 'add', 'CLI-10', '--percent', '10', '--max', '100', '--until', '2999-01-01'],
      { env },
    );
    expect(added.stdout).toBe('Added CLI-10\t10% off\t0/100 redeemed\tuntil 2999-01-01T00:00:00.000Z\n');
    expect(await coupons('list')).toContain('CLI-10\t10% off');
    const failed = await run(tsx, ['scripts/coupons.ts', 'frobnicate'], { env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown command "frobnicate"\nUsage:') });
  }, 60_000);
});
