import { describe, expect, it } from 'vitest';
import { serviceByAuthDomain, serviceByReverseDns } from './sending-services';

/*
 * PTR names as real mail shows them: each is the connecting host of a Received header in a public mailing-list
 * archive (lore.kernel.org: linux-kernel, linux-s390, linux-fsdevel; lists.freedesktop.org; lists.samba.org).
 */
const REAL_PTR_NAMES: [string, string][] = [
  ['mail-wr1-f53.google.com', 'Google Workspace'], // 209.85.221.53, linux-kernel, 13 Jun 2022
  ['mail-dm6nam11on2055.outbound.protection.outlook.com', 'Microsoft 365'], // 40.107.223.55, linux-s390 (amd.com)
  ['a8-40.smtp-out.amazonses.com', 'Amazon SES'], // 54.240.8.40, linux-fsdevel, 21 Feb 2023
  ['s.wrqvwxzv.outbound-mail.sendgrid.net', 'SendGrid'], // 149.72.154.232, linux-kernel, 18 Aug 2023
  ['mta199a-ord.mtasv.net', 'Postmark'], // 104.245.209.199, samba-technical, 7 Dec 2020
  ['so254-9.mailgun.net', 'Mailgun'], // 198.61.254.9, dri-devel, 10 Nov 2021
];

describe('the sending services table', () => {
  it.each(REAL_PTR_NAMES)('names %s as %s', (ptr, service) => {
    expect(serviceByReverseDns(ptr)?.name).toBe(service);
    expect(serviceByReverseDns(`${ptr.toUpperCase()}.`)?.name).toBe(service);
  });

  it('matches whole labels only', () => {
    expect(serviceByReverseDns('mail.notgoogle.com')).toBeNull();
    expect(serviceByReverseDns('google.com.attacker.example')).toBeNull();
    // Outlook.com's consumer web servers are not Microsoft 365's outbound relays.
    expect(serviceByReverseDns('www.outlook.com')).toBeNull();
    expect(serviceByReverseDns(null)).toBeNull();
  });

  it('names a service by the domain its customers’ mail authenticates as', () => {
    expect(serviceByAuthDomain('em123.sendgrid.net')?.name).toBe('SendGrid');
    expect(serviceByAuthDomain('contoso.onmicrosoft.com')?.name).toBe('Microsoft 365');
    expect(serviceByAuthDomain('bounces.example.net')).toBeNull();
  });
});
