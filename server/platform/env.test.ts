import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSecretNotice, loadEnv } from './env';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'inboxpulse-env-'));
const SECRET = 'a'.repeat(64);

describe('loadEnv', () => {
  it('has working defaults and generates APP_SECRET once into DATA_DIR', () => {
    const dir = tmp();
    const first = loadEnv({ DATA_DIR: dir });
    expect(first).toMatchObject({
      PORT: 3000,
      ROLES: ['web', 'worker', 'smtp'],
      APP_URL: 'http://localhost:3000',
      TRUST_PROXY: false,
      ALLOWED_HOSTS: [],
    });
    expect(first.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(first.APP_SECRET_FILE).toBe(path.resolve(dir, 'app-secret'));
    expect(readFileSync(path.join(dir, 'app-secret'), 'utf8').trim()).toBe(first.APP_SECRET);
    expect(loadEnv({ DATA_DIR: dir }).APP_SECRET).toBe(first.APP_SECRET);
  });

  it('parses roles, proxies, hosts and URLs, treating blank values as unset', () => {
    const env = loadEnv({
      DATA_DIR: tmp(),
      ROLES: 'web, worker',
      TRUST_PROXY: '1',
      ALLOWED_HOSTS: 'App.Example.com, 10.0.0.5,[::1]',
      PORT: '8080',
      APP_URL: 'https://app.example.com/',
      SMTP_URL: '',
    });
    expect(env).toMatchObject({
      ROLES: ['web', 'worker'],
      TRUST_PROXY: 1,
      PORT: 8080,
      APP_URL: 'https://app.example.com',
    });
    expect(env.ALLOWED_HOSTS).toEqual(['app.example.com', '10.0.0.5', '::1']);
    expect(env.SMTP_URL).toBeUndefined();
  });

  it('fails fast, naming every bad variable', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), ROLES: 'web,mailer', PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /ROLES[\s\S]*PORT|PORT[\s\S]*ROLES/,
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL/,
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), APP_SECRET: 'short' })).toThrow(
      /APP_SECRET must be at least 32 characters/,
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), INBOUND_DOMAIN: 'not a domain' })).toThrow(
      /INBOUND_DOMAIN must be a domain name/,
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), DMARC_IMAP_URL: 'imaps://imap.example.com/INBOX' })).toThrow(
      /DMARC_IMAP_URL: .*DMARC_IMAP_URL/,
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), ALLOWED_HOSTS: 'https://app.example.com' })).toThrow(
      /ALLOWED_HOSTS: .*no scheme, no port/,
    );
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadEnv({ DATA_DIR: tmp(), TRUST_PROXY: value }).TRUST_PROXY;

  it('takes a number of proxies or their addresses and ranges', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('10.0.0.0/8, 127.0.0.1,fd00::/8,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses true, which would trust whatever X-Forwarded-For a client sends, and says what to set', () => {
    expect(() => trust('true')).toThrow(
      /TRUST_PROXY: "true" would trust the left-most X-Forwarded-For entry.*number of proxies.*\(usually 1\).*10\.0\.0\.0\/8/,
    );
    expect(() => trust('TRUE')).toThrow(/TRUST_PROXY/);
  });

  it('refuses what is neither a count nor addresses', () => {
    expect(() => trust('yes')).toThrow(/TRUST_PROXY: "yes" is neither a number of proxies nor IP addresses/);
    expect(() => trust('10.0.0.0/40')).toThrow(/TRUST_PROXY: "10\.0\.0\.0\/40"/);
    expect(() => trust('proxy.internal')).toThrow(/TRUST_PROXY/);
  });
});

describe('APP_SECRET', () => {
  const DATABASE_URL = 'postgres://inboxpulse:pw@db.internal:5432/inboxpulse';

  it('is required from the environment with DATABASE_URL, with how to make one; no file is written', () => {
    const dir = tmp();
    let message = '';
    try {
      loadEnv({ DATA_DIR: dir, DATABASE_URL });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid environment:\n {2}APP_SECRET: required with DATABASE_URL/);
    expect(message).toContain('openssl rand -hex 32');
    expect(message).not.toContain('already has one');
    expect(() => readFileSync(path.join(dir, 'app-secret'))).toThrow(/ENOENT/);
    const env = loadEnv({ DATA_DIR: dir, DATABASE_URL, APP_SECRET: SECRET });
    expect(env.APP_SECRET).toBe(SECRET);
    expect(env.APP_SECRET_FILE).toBeUndefined();
  });

  it('names the key an installation already generated, so what it encrypted stays readable', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'app-secret'), `${SECRET}\n`);
    expect(() => loadEnv({ DATA_DIR: dir, DATABASE_URL })).toThrow(
      `already has one in ${path.resolve(dir, 'app-secret')}: set APP_SECRET to its content`,
    );
  });

  it('is listed with the other problems', () => {
    expect(() => loadEnv({ DATA_DIR: tmp(), DATABASE_URL, PORT: 'eighty' })).toThrow(
      /PORT[\s\S]*APP_SECRET: required with DATABASE_URL/,
    );
  });

  it('in the embedded quick start, start-up says where the generated key is and that backups of DATA_DIR carry it', () => {
    const dir = tmp();
    const notice = appSecretNotice(loadEnv({ DATA_DIR: dir }));
    expect(notice).toContain(path.resolve(dir, 'app-secret'));
    expect(notice).toMatch(/a backup of DATA_DIR carries it/);
    expect(appSecretNotice(loadEnv({ DATA_DIR: dir, APP_SECRET: SECRET }))).toBeUndefined();
  });
});
