import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../platform/env';
import { DEFAULT_SPAM_FOLDERS, loadSeedNetworkFile, seedNetworkOf } from './seed-network-file';

const dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-seeds-'));
let n = 0;
function file(name: string, content: string): string {
  const full = path.join(dir, `${n++}-${name}`);
  writeFileSync(full, content);
  return full;
}

const exampleFile = fileURLToPath(new URL('../../../docs/seed-network.example.yaml', import.meta.url));

describe('loadSeedNetworkFile', () => {
  it('reads the documented example', () => {
    const seeds = loadSeedNetworkFile(exampleFile, {
      SEED1_PASSWORD: 'one',
      SEED2_PASSWORD: 'two',
      SEED3_PASSWORD: 'three',
    });
    expect(seeds).toEqual([
      {
        provider: 'Gmail',
        mailboxSystem: 'Gmail',
        region: 'North America',
        country: 'United States',
        address: 'seed1@gmail.com',
        imap: { host: 'imap.gmail.com', port: 993, secure: true, user: 'seed1@gmail.com', password: 'one' },
        inboxFolder: 'INBOX',
        spamFolders: ['[Gmail]/Spam'],
        deleteFound: false,
      },
      {
        provider: 'Outlook',
        mailboxSystem: 'Microsoft 365',
        region: 'Europe',
        country: 'Germany',
        address: 'seed2@outlook.com',
        imap: { host: 'outlook.office365.com', port: 993, secure: true, user: 'seed2@outlook.com', password: 'two' },
        inboxFolder: 'INBOX',
        spamFolders: DEFAULT_SPAM_FOLDERS,
        deleteFound: true,
      },
      {
        provider: 'Company mail server',
        mailboxSystem: 'Dovecot',
        region: 'Europe',
        country: 'France',
        address: 'seed3@mail.example.fr',
        imap: {
          host: 'mail.example.fr',
          port: 143,
          secure: false,
          tlsRejectUnauthorized: false,
          user: 'seed3',
          password: 'three',
        },
        inboxFolder: 'INBOX',
        spamFolders: DEFAULT_SPAM_FOLDERS,
        deleteFound: false,
      },
    ]);
  });

  it('reads JSON the same way, with a literal password and the top-level deleteFoundMessages', () => {
    const json = file(
      'seeds.json',
      JSON.stringify({
        deleteFoundMessages: true,
        seeds: [
          {
            provider: 'Yahoo',
            mailboxSystem: 'Yahoo',
            region: 'Asia',
            country: 'Japan',
            address: 'Seed@Yahoo.co.jp',
            imap: { host: 'imap.mail.yahoo.co.jp', user: 'seed', password: 'env-less secret' },
            folders: { spam: ['Bulk Mail'] },
          },
        ],
      }),
    );
    expect(loadSeedNetworkFile(json, {})).toEqual([
      expect.objectContaining({
        address: 'seed@yahoo.co.jp',
        imap: expect.objectContaining({ password: 'env-less secret', port: 993 }),
        spamFolders: ['Bulk Mail'],
        deleteFound: true,
      }),
    ]);
    expect(loadSeedNetworkFile(file('empty.yml', 'seeds: []\n'), {})).toEqual([]);
  });

  it('lists every bad field with where it is, in one error', () => {
    const yaml = file(
      'bad.yaml',
      `seeds:
  - provider: Gmail
    mailboxSystem: ""
    region: Europe
    address: not-an-address
    imap: { host: imap.example.com, port: 99999, tls: yes, user: u, password: p, colour: blue }
  - provider: Gmail
    mailboxSystem: Gmail
    region: Europe
    country: France
    address: a@example.com
    imap: { host: imap.example.com, tls: true, user: u, password: env:MISSING_PW, starttls: false }
    folders: { spam: [] }
`,
    );
    let message = '';
    try {
      loadSeedNetworkFile(yaml, {});
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain(`Seed network file ${yaml}:`);
    expect(message).toContain('seeds[1].imap.password: environment variable MISSING_PW is not set');
    expect(message).toContain('seeds[0].country: is missing');
    for (const expected of [
      'seeds[0].mailboxSystem: must not be empty',
      'seeds[0].address: must be an e-mail address',
      'seeds[0].imap.port: must be 1 to 65535',
      'seeds[0].imap.tls: must be true or false',
      'seeds[0].imap: Unrecognized key: "colour"',
      'seeds[1].imap: Unrecognized key: "starttls"',
      'seeds[1].folders.spam: must name at least one folder',
    ]) {
      expect(message).toContain(expected);
    }
  });

  it('names missing password variables and duplicate addresses', () => {
    const seed = (address: string, password: string) => ({
      provider: 'P',
      mailboxSystem: 'M',
      region: 'R',
      country: 'C',
      address,
      imap: { host: 'h', user: 'u', password },
    });
    const json = file(
      'dupes.json',
      JSON.stringify({
        seeds: [
          seed('a@example.com', 'env:SEED_A'),
          seed('b@example.com', 'env:SEED_B'),
          seed('A@example.com', 'env:SEED_A'),
        ],
      }),
    );
    expect(() => loadSeedNetworkFile(json, { SEED_A: 'x' })).toThrow(
      /seeds\[1\]\.imap\.password: environment variable SEED_B is not set\n\s+seeds\[2\]\.address: a@example\.com is already the address of seeds\[0\]/,
    );
  });

  it('says when the file is missing, unparsable or of an unknown kind', () => {
    expect(() => loadSeedNetworkFile(path.join(dir, 'nope.yaml'), {})).toThrow(
      /nope\.yaml:\n\s+the file does not exist/,
    );
    expect(() => loadSeedNetworkFile(file('broken.json', '{"seeds": ['), {})).toThrow(/not valid JSON/);
    expect(() => loadSeedNetworkFile(file('broken.yaml', 'seeds:\n  - provider: "unclosed\n'), {})).toThrow(
      /not valid YAML/,
    );
    expect(() => loadSeedNetworkFile(file('seeds.toml', 'seeds = []'), {})).toThrow(
      /must end in \.json, \.yaml or \.yml/,
    );
    expect(() => loadSeedNetworkFile(file('list.yaml', '- a\n- b\n'), {})).toThrow(/file: /);
    expect(() => loadSeedNetworkFile(file('seeds-text.yaml', 'seeds: none\n'), {})).toThrow(
      /seeds: must be a list of seed mailboxes/,
    );
    expect(() => loadSeedNetworkFile(file('noseeds.yaml', 'deleteFoundMessages: true\n'), {})).toThrow(
      /seeds: is missing/,
    );
  });
});

describe('seedNetworkOf: SEED_NETWORK_FILE at start-up', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-seed-env-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const seedFile = (content: string) => {
    const file = path.join(dir, 'seeds.yaml');
    writeFileSync(file, content);
    return file;
  };
  const oneSeed = `seeds:
  - { provider: Gmail, mailboxSystem: Gmail, region: Europe, country: France, address: seed@example.com,
      imap: { host: imap.example.com, user: seed, password: env:SEED_PW } }
`;

  it('reads the seed network, with passwords from the same environment', () => {
    expect(seedNetworkOf(loadEnv({ DATA_DIR: dir }))).toBeUndefined();
    const env = loadEnv({ DATA_DIR: dir, SEED_NETWORK_FILE: seedFile(oneSeed), SEED_PW: 'pw' });
    expect(seedNetworkOf(env)).toEqual([
      expect.objectContaining({
        address: 'seed@example.com',
        imap: expect.objectContaining({ password: 'pw', port: 993, secure: true }),
      }),
    ]);
  });

  it('stops start-up on a broken file, saying which variable and what is wrong', () => {
    expect(() => seedNetworkOf(loadEnv({ DATA_DIR: dir, SEED_NETWORK_FILE: seedFile(oneSeed) }))).toThrow(
      /Invalid environment:\n {2}SEED_NETWORK_FILE: Seed network file .*seeds\.yaml:\n {4}seeds\[0\]\.imap\.password: environment variable SEED_PW is not set/,
    );
    expect(() => seedNetworkOf(loadEnv({ DATA_DIR: dir, SEED_NETWORK_FILE: '/nonexistent/seeds.yaml' }))).toThrow(
      /SEED_NETWORK_FILE: .*\n\s+the file does not exist/,
    );
  });
});
