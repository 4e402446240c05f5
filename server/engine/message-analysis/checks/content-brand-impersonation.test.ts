import { describe, expect, it } from 'vitest';
import { analyzeContent } from './content';
import { checkBrandImpersonation } from './content-brand-impersonation';
import { scoreFindings } from './score';
import { corpusMessage } from './spam-content/corpus.test-support';

const idFor = (name: string, address: string | null) => checkBrandImpersonation({ name, address }).id;

describe('display-name brand impersonation', () => {
  it('places the "Microsoft 365" billing phish from another domain in spam', async () => {
    const a = await analyzeContent(corpusMessage('spam/brand-display-name-phish.eml'));
    const finding = a.findings.find((f) => f.id === 'content.brand-impersonation');
    expect(finding).toMatchObject({ severity: 'error', deduction: 4.5 });
    expect(finding?.detail).toContain(
      'The From name is "Microsoft 365" but the address is billing@m365-subscriptions.example.com; microsoft.com is where that brand sends from.',
    );
    expect(finding?.fix).toContain('m365-subscriptions.example.com');
    expect(scoreFindings(a.findings).score).toBeLessThan(5);
  });

  it("spares the same display name on Microsoft's own domain", async () => {
    const a = await analyzeContent(corpusMessage('ham/microsoft-365-billing-receipt.eml'));
    expect(a.findings.find((f) => f.id.endsWith('display-name'))).toMatchObject({
      id: 'content.display-name',
      severity: 'pass',
      detail: 'microsoft.com',
    });
    expect(idFor('Microsoft account team', 'account-security-noreply@accountprotection.microsoft.com')).toBe(
      'content.display-name',
    );
    expect(idFor('Facebook', 'security@facebookmail.com')).toBe('content.display-name');
  });

  it('hits the brand with its service words, disguised letters, or on a free mailbox the brand runs', () => {
    for (const [name, address] of [
      ['PayPal', 'service@paypal-resolution.example'],
      ['Amazon.com', 'order-update@amaz0n-orders.example'],
      ['Apple Support', 'noreply@icloud.com'],
      ['Microsoft Support', 'helpdesk365@outlook.com'],
      ['PayPa1 Service', 'alerts@pp-secure.example'],
      ['DHL Express', 'parcel@dhl-tracking.example'],
      ['Bank of America Alerts', 'alerts@boa-online.example'],
      ['Chase Alerts', 'no.reply@chase-secure.example'],
      ['Wells Fargo Online', 'wf@wellsfargo-online.example'],
      ['DocuSign', 'dse@docs-sign.example'],
      ['DocuSign Electronic Signature', 'dse@esign-docs.example'],
      ['Adobe Document Cloud', 'share@adobe-docs.example'],
      // In Check Point's Q3 and Q4 2024 top 10s.
      ['Twitter Support', 'verify@twitter-badge.example'],
      ['Adidas', 'giveaway@adidas-outlet.example'],
    ])
      expect(idFor(name, address), name).toBe('content.brand-impersonation');
  });

  it('spares names that only contain a brand word, and people called Chase', () => {
    for (const [name, address] of [
      ['Apple Valley Farm', 'orders@applevalleyfarm.example'],
      ['Chase Miller', 'chase.miller@gmail.com'],
      ['Chase', 'chase@personal.example'],
      ['Google Developer Group Berlin', 'gdg-berlin@meetup.example'],
      ['Amazonas Travel', 'info@amazonas-travel.example'],
      ['X Studio', 'hello@x-studio.example'],
      ['', 'billing@m365-subscriptions.example.com'],
    ])
      expect(idFor(name, address), name).toBe('content.display-name');
  });
});
