import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '@contracts/domains';
import { type TestDnsServer, type ZoneEntry, startLoopbackDns } from '../../test/dns-server';
import type { DnsResolver } from '../../platform/dns/resolver';
import { checkDkim } from './dkim';

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => ({ dns, resolver } = await startLoopbackDns()));
afterAll(() => dns.close());

/**
 * An RSA public key of `bits` bits, base64 as p= carries it: SubjectPublicKeyInfo (what most providers
 * publish, "MIIBIjANBgkqhkiG…" at 2048 bits) or PKCS#1 RSAPublicKey ("MIIBCgKCAQEA…"). A reader of key
 * records sees only the modulus' length, so a random odd modulus stands in for a real one (a real
 * 8192-bit key takes seconds to make).
 */
function rsaKey(bits: number, type: 'spki' | 'pkcs1' = 'spki'): string {
  const modulus = randomBytes(bits / 8);
  modulus[0] |= 0x80;
  modulus[modulus.length - 1] |= 1;
  return createPublicKey({ key: { kty: 'RSA', n: modulus.toString('base64url'), e: 'AQAB' }, format: 'jwk' })
    .export({ type, format: 'der' })
    .toString('base64');
}

const ed25519 = generateKeyPairSync('ed25519').publicKey;
/** RFC 8463 4.2: p= is the bare 32-byte key. */
const ed25519Raw = Buffer.from(ed25519.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
/** The same key wrapped as SubjectPublicKeyInfo (44 bytes), as some key generators print it. */
const ed25519Spki = ed25519.export({ type: 'spki', format: 'der' }).toString('base64');

const rsa1024 = rsaKey(1024);
const rsa2048 = rsaKey(2048);
const rsa4096 = rsaKey(4096);

/** A record cut into the 255-byte strings a TXT record is made of. */
const strings = (record: string) => record.match(/[^]{1,255}/g)!;

type Expected = [severity: Finding['severity'], message: string, fix?: string];

interface Case {
  clause: string;
  name: string;
  txt: NonNullable<ZoneEntry['TXT']>;
  status: 'valid' | 'invalid';
  keyType?: string | null;
  keyBits?: number | null;
  /** Every finding of the selector, in order: a part of its message (and of its fix), `{name}` standing for the selector's DNS name. */
  findings: Expected[];
}

const cases: Case[] = [
  // RFC 6376 3.2: the tag-list grammar.
  {
    clause: 'RFC 6376 3.2',
    name: 'white space around "=" and ";" is allowed',
    txt: [`v = DKIM1 ; k = rsa ; p = ${rsa2048}`],
    status: 'valid',
    keyType: 'rsa',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'tabs and a final ";" are allowed',
    txt: [`v=DKIM1;\tk=rsa;\tp=${rsa2048};`],
    status: 'valid',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'a tag named twice makes the whole record invalid',
    txt: [`v=DKIM1; k=rsa; p=${rsa2048}; p=${rsa1024}`],
    status: 'invalid',
    keyType: null,
    keyBits: null,
    findings: [
      [
        'error',
        'The DKIM record at {name} is not a valid tag list: the tag p= appears twice, so verifiers reject it (RFC 6376 section 3.2).',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'tag names are case-sensitive: P= is an unknown tag, so the record has no key',
    txt: [`v=DKIM1; k=rsa; P=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'has no p= tag']],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'a part without "=" makes the record invalid',
    txt: [`v=DKIM1; k=rsa; testing; p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'is not a valid tag list: "testing" has no "="']],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'an empty tag between two semicolons makes the record invalid',
    txt: [`v=DKIM1;; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'is not a valid tag list: it has an empty tag between two semicolons']],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'a tag name is letters, digits and "_", starting with a letter',
    txt: [`v=DKIM1; k=rsa; x-note=hello; p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'is not a valid tag list: "x-note" is not a tag name']],
  },
  {
    clause: 'RFC 6376 3.2',
    name: 'unknown tags are ignored (g= of RFC 4871, n= notes)',
    txt: [`v=DKIM1; g=*; k=rsa; n=Rotated_2025; p=${rsa2048}`],
    status: 'valid',
    keyBits: 2048,
    findings: [],
  },

  // RFC 6376 3.6.1 v=, and which TXT record is the key record (3.6.2.2, 6.1.2).
  {
    clause: 'RFC 6376 3.6.1 v=',
    name: 'a record beginning with another v= is discarded: no key at the selector',
    txt: [`v=DKIM2; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    keyType: null,
    keyBits: null,
    findings: [
      [
        'error',
        'The TXT record at {name} starts with v=DKIM2, not v=DKIM1, so verifiers discard it (RFC 6376 section 3.6.1).',
        'Start the record with v=DKIM1',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 v=',
    name: 'v=dkim1 in lower case is another value: the record is discarded',
    txt: [`v=dkim1; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'starts with v=dkim1, not v=DKIM1', 'Write v=DKIM1 in capital letters']],
  },
  {
    clause: 'RFC 6376 3.6.1 v=',
    name: 'v=DKIM1 without the semicolon after it is another value: the record is discarded',
    txt: [`v=DKIM1 k=rsa p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'starts with v=DKIM1 k=rsa p=MIIB', 'Put a semicolon after v=DKIM1']],
  },
  {
    clause: 'RFC 6376 3.6.1 v=',
    name: 'v=DKIM1 must be the first tag',
    txt: [`k=rsa; v=DKIM1; p=${rsa2048}`],
    status: 'valid',
    keyBits: 2048,
    findings: [
      ['warning', 'v=DKIM1 is not the first tag of the record at {name}', 'Move v=DKIM1 to the start of the record.'],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 v=',
    name: 'v= is optional: a record of p= alone is a key (Amazon SES style)',
    txt: [`p=${rsa2048}`],
    status: 'valid',
    keyType: 'rsa',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.2.2',
    name: 'a TXT record beside the key record (an SPF record) breaks verifiers that take the first answer or refuse several',
    txt: ['v=spf1 -all', `v=DKIM1; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    keyBits: 2048,
    findings: [
      [
        'error',
        '{name} also has another TXT record ("v=spf1 -all"); a selector may have only its key record',
        'Remove the other TXT records at {name}.',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.2.2',
    name: 'two key records at one selector are ambiguous',
    txt: [`v=DKIM1; k=rsa; p=${rsa2048}`, `v=DKIM1; k=rsa; p=${rsaKey(2048)}`],
    status: 'invalid',
    keyBits: 2048,
    findings: [
      [
        'error',
        '{name} has 2 DKIM key records; a selector may have only one (RFC 6376 section 3.6.2.2)',
        'Keep only the record',
      ],
    ],
  },

  // RFC 6376 3.6.1 k= and p=, RFC 8463.
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'an RSA key as SubjectPublicKeyInfo',
    txt: [`v=DKIM1; k=rsa; p=${rsa2048}`],
    status: 'valid',
    keyType: 'rsa',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 k=',
    name: 'an RSA key as PKCS#1 RSAPublicKey (what k=rsa names; OpenDKIM and dkimpy accept it)',
    txt: [`v=DKIM1; k=rsa; p=${rsaKey(2048, 'pkcs1')}`],
    status: 'valid',
    keyType: 'rsa',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'a PKCS#1 key under 1024 bits is too short like any other',
    txt: [`v=DKIM1; p=${rsaKey(512, 'pkcs1')}`],
    status: 'invalid',
    keyBits: 512,
    findings: [['error', 'The 512-bit RSA key at {name} is too short']],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'an empty p= is a revoked key',
    txt: ['v=DKIM1; k=rsa; p='],
    status: 'invalid',
    keyBits: null,
    findings: [['error', 'The key at {name} is revoked (empty p=).']],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'a record without p= holds no key',
    txt: ['v=DKIM1; k=rsa; t=y'],
    status: 'invalid',
    findings: [
      ['error', 'The record at {name} has no p= tag, so it holds no key'],
      ['info', 'testing mode (t=y)'],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'p= may hold white space anywhere (base64string with FWS)',
    txt: [`v=DKIM1; k=rsa; p=${rsa2048.match(/.{1,64}/g)!.join(' ')}`],
    status: 'valid',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'p= with characters outside base64 (quotes a DNS host kept) is invalid',
    txt: [`v=DKIM1; k=rsa; p="${rsa2048}"`],
    status: 'invalid',
    keyBits: null,
    findings: [
      ['error', 'The p= value at {name} is not base64: it contains quotation marks.', 'Copy the public key again'],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 p=',
    name: 'p= that decodes to neither SubjectPublicKeyInfo nor RSAPublicKey is invalid (a key cut short)',
    txt: [`v=DKIM1; k=rsa; p=${rsa2048.slice(0, 200)}`],
    status: 'invalid',
    keyBits: null,
    findings: [
      [
        'error',
        'The p= value at {name} is not an RSA public key: it decodes to neither a SubjectPublicKeyInfo nor a PKCS#1 RSAPublicKey.',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 k=',
    name: 'k=rsa with an Ed25519 key in p= is invalid',
    txt: [`v=DKIM1; k=rsa; p=${ed25519Spki}`],
    status: 'invalid',
    findings: [['error', 'The p= value at {name} holds an ed25519 key, not the RSA key k=rsa says']],
  },
  {
    clause: 'RFC 6376 3.6.1 k=',
    name: 'an unknown key type is a key no verifier can use',
    txt: [`v=DKIM1; k=dsa; p=${rsa2048}`],
    status: 'invalid',
    keyType: 'dsa',
    keyBits: null,
    findings: [
      ['error', 'The record at {name} has k=dsa, a key type verifiers do not know (rsa or ed25519)', 'Set k=rsa'],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 k=',
    name: 'values are case-sensitive: k=RSA is not rsa',
    txt: [`v=DKIM1; k=RSA; p=${rsa2048}`],
    status: 'invalid',
    keyType: 'RSA',
    findings: [['error', 'has k=RSA, a key type verifiers do not know', '(in lower case)']],
  },
  {
    clause: 'RFC 8463 4.2',
    name: 'k=ed25519 with the bare 32-byte key is valid, 256 bits',
    txt: [`v=DKIM1; k=ed25519; p=${ed25519Raw}`],
    status: 'valid',
    keyType: 'ed25519',
    keyBits: 256,
    findings: [],
  },
  {
    clause: 'RFC 8463 4.2',
    name: 'k=ed25519 with the key wrapped as SubjectPublicKeyInfo is invalid, and the fix gives the bare key',
    txt: [`v=DKIM1; k=ed25519; p=${ed25519Spki}`],
    status: 'invalid',
    keyType: 'ed25519',
    keyBits: null,
    findings: [
      ['error', 'The Ed25519 key at {name} is wrapped as a SubjectPublicKeyInfo (44 bytes)', `p=${ed25519Raw}`],
    ],
  },

  // RFC 6376 3.6.1 h= with RFC 8301 3.1.
  {
    clause: 'RFC 8301 3.1',
    name: 'h=sha1 alone: no signature can verify',
    txt: [`v=DKIM1; h=sha1; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    keyBits: 2048,
    findings: [
      [
        'error',
        'allows only SHA-1 signatures (h=sha1), and verifiers must not accept rsa-sha1 signatures (RFC 8301 section 3.1)',
        'set h=sha256',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 h=',
    name: 'h=sha1:sha256 still allows sha256',
    txt: [`v=DKIM1; h=sha1:sha256; k=rsa; p=${rsa2048}`],
    status: 'valid',
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 h=',
    name: 'unknown hash algorithms are ignored',
    txt: [`v=DKIM1; h=sha512 : sha256; k=rsa; p=${rsa2048}`],
    status: 'valid',
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 h=',
    name: 'h= naming only unknown algorithms leaves none',
    txt: [`v=DKIM1; h=sha512; k=rsa; p=${rsa2048}`],
    status: 'invalid',
    findings: [['error', 'allows only hash algorithms verifiers do not know (h=sha512)']],
  },
  {
    clause: 'RFC 8463 3',
    name: 'an Ed25519 key limited to sha1 cannot verify ed25519-sha256 either',
    txt: [`v=DKIM1; k=ed25519; h=sha1; p=${ed25519Raw}`],
    status: 'invalid',
    keyBits: 256,
    findings: [['error', 'allows only SHA-1 signatures (h=sha1)']],
  },

  // RFC 6376 3.6.1 s=.
  {
    clause: 'RFC 6376 3.6.1 s=',
    name: 's=email is for mail',
    txt: [`v=DKIM1; k=rsa; s=email; p=${rsa2048}`],
    status: 'valid',
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 s=',
    name: 's=* is for every service',
    txt: [`v=DKIM1; k=rsa; s=*; p=${rsa2048}`],
    status: 'valid',
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 s=',
    name: 's=tlsrpt:email includes mail',
    txt: [`v=DKIM1; k=rsa; s=tlsrpt:email; p=${rsa2048}`],
    status: 'valid',
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.1 s=',
    name: 'a key only for TLS reports (s=tlsrpt, RFC 8460) cannot sign mail',
    txt: [`v=DKIM1; k=rsa; s=tlsrpt; p=${rsa2048}`],
    status: 'invalid',
    keyBits: 2048,
    findings: [
      [
        'error',
        'The key at {name} is restricted to other services (s=tlsrpt): verifiers of email ignore it',
        'set s=email',
      ],
    ],
  },

  // RFC 6376 3.6.1 t=.
  {
    clause: 'RFC 6376 3.6.1 t=',
    name: 't=y is testing mode: a note',
    txt: [`v=DKIM1; k=rsa; t=y; p=${rsa2048}`],
    status: 'valid',
    findings: [
      [
        'info',
        'The key at {name} is in testing mode (t=y): receivers may treat mail signed with it as unsigned',
        'Remove t=y',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 t=',
    name: 't=s (SendGrid style, no v=): a note on what it restricts',
    txt: [`k=rsa; t=s; p=${rsa2048}`],
    status: 'valid',
    findings: [
      [
        'info',
        'The key at {name} is restricted to its exact domain (t=s): a signature whose i= is at a subdomain of d=',
      ],
    ],
  },
  {
    clause: 'RFC 6376 3.6.1 t=',
    name: 't=y:s says both; unknown flags are ignored',
    txt: [`v=DKIM1; k=rsa; t=y:s:x; p=${rsa2048}`],
    status: 'valid',
    findings: [
      ['info', '(t=y)'],
      ['info', '(t=s)'],
    ],
  },

  // RFC 8301 3.2: key sizes.
  {
    clause: 'RFC 8301 3.2',
    name: 'an RSA key under 1024 bits is invalid',
    txt: [`v=DKIM1; k=rsa; p=${rsaKey(768)}`],
    status: 'invalid',
    keyBits: 768,
    findings: [
      [
        'error',
        'The 768-bit RSA key at {name} is too short: verifiers must not accept signatures made with keys under 1024 bits (RFC 8301 section 3.2).',
      ],
    ],
  },
  {
    clause: 'RFC 8301 3.2',
    name: 'a 1024-bit key is a warning (Mailchimp style)',
    txt: [`v=DKIM1; k=rsa; p=${rsa1024}`],
    status: 'valid',
    keyBits: 1024,
    findings: [
      [
        'warning',
        'The 1024-bit RSA key at {name} is weaker than recommended: RFC 8301 section 3.2 asks signers for 2048 bits.',
        'Rotate to a 2048-bit key.',
      ],
    ],
  },
  {
    clause: 'RFC 8301 3.2',
    name: 'a key over 4096 bits is more than verifiers must support',
    txt: [strings(`v=DKIM1; k=rsa; p=${rsaKey(8192)}`)],
    status: 'valid',
    keyBits: 8192,
    findings: [
      [
        'warning',
        'The 8192-bit RSA key at {name} is longer than verifiers must support (4096 bits, RFC 8301 section 3.2)',
      ],
    ],
  },

  // Keys published as several strings of one TXT record (RFC 6376 3.6.2.2: joined with nothing between).
  {
    clause: 'RFC 6376 3.6.2.2',
    name: 'a 2048-bit key in two strings (Google Workspace style)',
    txt: [[`v=DKIM1; k=rsa; p=${rsa2048.slice(0, 200)}`, rsa2048.slice(200)]],
    status: 'valid',
    keyBits: 2048,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.2.2',
    name: 'a 4096-bit key in 255-byte strings, with spaces after ";" and around "="',
    txt: [strings(`v = DKIM1; k = rsa; p = ${rsa4096}`)],
    status: 'valid',
    keyBits: 4096,
    findings: [],
  },
  {
    clause: 'RFC 6376 3.6.2.2',
    name: 'a 2048-bit key whose strings end in a space: white space inside p= (FWS)',
    txt: [[`v=DKIM1; k=rsa; p=${rsa2048.slice(0, 150)} `, `${rsa2048.slice(150, 300)} `, rsa2048.slice(300)]],
    status: 'valid',
    keyBits: 2048,
    findings: [],
  },
];

describe('DKIM key records, clause by clause', () => {
  for (const [i, { clause, name: title, txt, status, keyType, keyBits, findings }] of cases.entries())
    it(`${clause}: ${title}`, async () => {
      const domain = `case${i}.key-records.test`;
      const name = `brand2025._domainkey.${domain}`;
      dns.zone[name] = { TXT: txt };
      const dkim = await checkDkim(resolver, domain, ['brand2025']);
      const selector = dkim.selectors.find((s) => s.selector === 'brand2025');
      expect(selector, JSON.stringify(dkim.findings)).toBeDefined();
      const named = (text: string) => text.replaceAll('{name}', name);
      expect(selector!.findings).toEqual(
        findings.map(([severity, message, fix]) =>
          expect.objectContaining({
            severity,
            message: expect.stringContaining(named(message)),
            ...(fix === undefined ? {} : { fix: expect.stringContaining(named(fix)) }),
          }),
        ),
      );
      expect(selector!.status).toBe(status);
      if (keyType !== undefined) expect(selector!.keyType).toBe(keyType);
      if (keyBits !== undefined) expect(selector!.keyBits).toBe(keyBits);
      expect(dkim.status).toBe(status);
    });
});

describe('DKIM: records at a selector that are not key records', () => {
  it('RFC 6376 3.6.1 v=: a common selector answering with another record (an SPF wildcard) is not a key and not reported', async () => {
    dns.zone['default._domainkey.wildcard-spf.test'] = { TXT: ['v=spf1 include:_spf.mailhost.test -all'] };
    const dkim = await checkDkim(resolver, 'wildcard-spf.test', []);
    expect(dkim.status).toBe('missing');
    expect(dkim.selectors).toEqual([]);
  });

  it('RFC 6376 3.6.1 v=: a common selector with a discarded DKIM record (v=dkim1) is reported, since it was meant as a key', async () => {
    dns.zone['selector1._domainkey.lowercase-v.test'] = { TXT: [`v=dkim1; k=rsa; p=${rsa2048}`] };
    const dkim = await checkDkim(resolver, 'lowercase-v.test', []);
    expect(dkim.status).toBe('invalid');
    expect(dkim.selectors).toMatchObject([
      { selector: 'selector1', status: 'invalid', record: null, keyType: null, keyBits: null },
    ]);
    expect(dkim.findings.map((f) => f.message)).toContain(
      'The TXT record at selector1._domainkey.lowercase-v.test starts with v=dkim1, not v=DKIM1, so verifiers discard it (RFC 6376 section 3.6.1).',
    );
  });

  it('RFC 6376 3.6.1: the user’s selector answering with a record that is no DKIM key says what it found', async () => {
    dns.zone['esp._domainkey.verification-only.test'] = { TXT: ['google-site-verification=4f9c2a'] };
    const dkim = await checkDkim(resolver, 'verification-only.test', ['esp']);
    expect(dkim.status).toBe('missing');
    expect(dkim.findings[0]).toEqual({
      severity: 'error',
      message:
        'No DKIM key at esp._domainkey.verification-only.test: its TXT record "google-site-verification=4f9c2a" is not a DKIM key.',
      fix: 'Publish the key your provider gives for this selector, or remove the selector.',
    });
  });
});
