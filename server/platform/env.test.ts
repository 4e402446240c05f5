import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'inboxpulse-env-'));

describe('loadEnv', () => {
  it('has working defaults and generates APP_SECRET once into DATA_DIR', () => {
    const dir = tmp();
    const first = loadEnv({ DATA_DIR: dir });
    expect(first).toMatchObject({ PORT: 3000, ROLES: ['web', 'worker', 'smtp'], APP_URL: 'http://localhost:3000', TRUST_PROXY: false });
    expect(first.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'app-secret'), 'utf8').trim()).toBe(first.APP_SECRET);
    expect(loadEnv({ DATA_DIR: dir }).APP_SECRET).toBe(first.APP_SECRET);
  });

  it('parses roles, flags and URLs, treating blank values as unset', () => {
    const env = loadEnv({ DATA_DIR: tmp(), ROLES: 'web, worker', TRUST_PROXY: 'true', PORT: '8080', APP_URL: 'https://app.example.com/', SMTP_URL: '' });
    expect(env).toMatchObject({ ROLES: ['web', 'worker'], TRUST_PROXY: true, PORT: 8080, APP_URL: 'https://app.example.com' });
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('fails fast, naming every bad variable', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), ROLES: 'web,mailer', PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(/ROLES[\s\S]*PORT|PORT[\s\S]*ROLES/);
    expect(() => loadEnv({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(() => loadEnv({ DATA_DIR: tmp(), APP_SECRET: 'short' })).toThrow(/APP_SECRET must be at least 32 characters/);
    expect(() => loadEnv({ DATA_DIR: tmp(), INBOUND_DOMAIN: 'not a domain' })).toThrow(/INBOUND_DOMAIN must be a domain name/);
    expect(() => loadEnv({ DATA_DIR: tmp(), DMARC_IMAP_URL: 'imaps://imap.example.com/INBOX' })).toThrow(/DMARC_IMAP_URL: .*DMARC_IMAP_URL/);
  });
});
