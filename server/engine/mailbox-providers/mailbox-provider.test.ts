import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../platform/dns/resolver';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { lookupMailboxProvider, lookupMailboxProviders, providerOfMxHost } from './mailbox-provider';

let dns: TestDnsServer;
beforeAll(async () => {
  // The providers' real MX hosts, served by a DNS server on loopback.
  dns = await startDnsServer({
    'gmail.com': {
      MX: [
        { exchange: 'gmail-smtp-in.l.google.com', priority: 5 },
        { exchange: 'alt1.gmail-smtp-in.l.google.com', priority: 10 },
      ],
    },
    'brand.example': { MX: [{ exchange: 'aspmx.l.google.com', priority: 1 }] },
    'corp.example': { MX: [{ exchange: 'corp-example.mail.protection.outlook.com', priority: 0 }] },
    'yahoo.com': { MX: [{ exchange: 'mta5.am0.yahoodns.net', priority: 1 }] },
    'icloud.com': { MX: [{ exchange: 'mx01.mail.icloud.com', priority: 10 }] },
    'gmx.de': { MX: [{ exchange: 'mx00.emig.gmx.net', priority: 10 }] },
    'own.example': { MX: [{ exchange: 'mail.own.example', priority: 10 }] },
    // A company's own gateway first, Google behind it.
    'mixed.example': {
      MX: [
        { exchange: 'gw.mixed.example', priority: 5 },
        { exchange: 'aspmx.l.google.com', priority: 10 },
      ],
    },
  });
  dns.servfail.add('outlook.com');
});
afterAll(() => dns?.close());

describe('mailbox provider from the MX', () => {
  it('names the provider of a domain from its MX hosts, whatever the domain is called', async () => {
    const resolver = createResolver({ servers: [dns.address], timeoutMs: 500, tries: 1, maxCacheSeconds: 0 });
    expect(await lookupMailboxProvider(resolver, 'gmail.com')).toBe('gmail');
    expect(await lookupMailboxProvider(resolver, 'brand.example')).toBe('gmail');
    expect(await lookupMailboxProvider(resolver, 'corp.example')).toBe('outlook');
    expect(await lookupMailboxProvider(resolver, 'yahoo.com')).toBe('yahoo');
    expect(await lookupMailboxProvider(resolver, 'icloud.com')).toBe('apple');
    expect(await lookupMailboxProvider(resolver, 'gmx.de')).toBe('gmx');
    expect(await lookupMailboxProvider(resolver, 'own.example')).toBe('other');
    expect(await lookupMailboxProvider(resolver, 'mixed.example')).toBe('gmail');
    expect(await lookupMailboxProvider(resolver, 'nowhere.example')).toBe('other');
    // SERVFAIL: the well-known name still says it.
    expect(await lookupMailboxProvider(resolver, 'outlook.com')).toBe('outlook');
  });

  it('looks each domain up once per batch, in parallel, within a deadline', async () => {
    const resolver = createResolver({ servers: [dns.address], timeoutMs: 10_000, tries: 1, maxCacheSeconds: 0 });
    dns.silent.add('slow.example');
    const started = Date.now();
    const found = await lookupMailboxProviders(resolver, ['gmail.com', 'gmail.com', 'yahoo.com', 'slow.example'], {
      deadlineMs: 300,
    });
    // Far below the resolver's 10 s timeout: the deadline cut the wait, with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Object.fromEntries(found)).toEqual({ 'gmail.com': 'gmail', 'yahoo.com': 'yahoo', 'slow.example': 'other' });
    expect(providerOfMxHost('ALT2.ASPMX.L.GOOGLE.COM.')).toBe('gmail');
  });
});
