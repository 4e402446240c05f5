import { COMPANY } from '../company';
import type { LegalDocument } from './legal-document';

/**
 * The Terms of Service (/terms-of-service): the 14 sections, date and figures of part 2, sections 2
 * and 9, written for this product. The prices are the terms' own (Starter $29, Professional $99,
 * Enterprise $299 a month), kept as written though the pricing page says otherwise (DESIGN.md).
 */
export const TERMS_OF_SERVICE: LegalDocument = {
  title: 'Terms of Service',
  lastUpdated: 'December 7, 2024',
  intro: `These Terms of Service govern your use of ${COMPANY.productName}, the email deliverability monitoring service operated by ${COMPANY.legalEntity}. Please read them carefully.`,
  sections: [
    {
      id: 'terms',
      title: '1. Acceptance of Terms',
      paragraphs: [
        `By creating an account, or by using ${COMPANY.productName}, its website, its API or its integrations (together, the "Service"), you agree to these Terms of Service and to our Privacy Policy. If you use the Service on behalf of an organization, you accept these terms for that organization and confirm that you may do so.`,
        'If you do not agree to these terms, do not use the Service.',
      ],
    },
    {
      id: 'service-description',
      title: '2. Service Description',
      paragraphs: [
        `${COMPANY.productName} helps email senders find out whether their mail reaches the inbox. The Service includes:`,
      ],
      list: [
        'inbox placement tests, in which you send a real message to the test addresses we provide and we report where it landed;',
        'monitoring of the SPF, DKIM and DMARC records of your sending domains, and analysis of the DMARC reports you send us;',
        'monitoring of your IP addresses and domains against DNS blocklists, and reputation scores;',
        'alerts by email and, on plans that include them, by Slack, SMS and webhook;',
        'integrations with email service providers, Google Postmaster Tools and mail transfer agents; and',
        'a REST API and webhooks.',
      ],
      after: [
        'Results are measurements taken at a point in time. Mailbox providers decide for themselves where a message is delivered, so we cannot guarantee inbox placement, a listing removal or any particular delivery result.',
      ],
    },
    {
      id: 'accounts',
      title: '3. Accounts',
      paragraphs: [
        'You must be at least 18 years old to create an account, or have the consent of a parent or legal guardian who agrees to these terms for you.',
        'You must give accurate registration information, including an email address you can receive mail at, and keep it up to date. You are responsible for keeping your password, API keys and webhook tokens secret and for everything done with your account. Tell us at once if you think someone else has used it.',
      ],
    },
    {
      id: 'acceptable-use',
      title: '4. Acceptable Use',
      paragraphs: ['When you use the Service you agree not to:'],
      list: [
        'monitor or test domains, IP addresses or mailboxes that you do not own or are not authorized to manage;',
        'send spam, phishing or malware through the Service, or use our test addresses for anything but inbox placement tests;',
        'break the law, including anti-spam and data protection laws such as CAN-SPAM and the GDPR;',
        "try to reach other users' data, get around plan limits or API rate limits, or disrupt the Service;",
        'copy, resell or reverse engineer the Service, except where the law allows it.',
      ],
    },
    {
      id: 'plans-and-billing',
      title: '5. Plans and Billing',
      paragraphs: [
        'The Service is offered on these plans: Free (limited features and volumes, no charge), Starter at $29/month, Professional at $99/month and Enterprise at $299/month. What each plan includes, and any current offers such as annual billing or coupons, are shown on the Pricing page.',
        'Paid plans are billed monthly in advance. Fees are non-refundable, except where the law requires otherwise. We will give you at least 30 days notice before a price change takes effect; the new price applies from your next billing period after that.',
        'You can change or cancel your plan at any time on the Subscription page. A cancellation takes effect at the end of the period you have paid for, and you keep your plan until then. When your account moves to a plan with lower limits, data older than that plan keeps is deleted.',
        'Prices do not include taxes, which are added where they apply. Payments are processed by our payment provider; we never see or store your full card number.',
      ],
    },
    {
      id: 'data-and-privacy',
      title: '6. Data and Privacy',
      paragraphs: [
        'You keep all rights to the data you bring to the Service: your domains, IP addresses, test messages, DMARC reports, delivery events and integration data. You give us permission to process it only to provide the Service to you.',
        'How we collect, use, share and protect personal information is described in our Privacy Policy. We keep your monitoring data for the retention period of your plan, and delete it when you delete your account.',
      ],
    },
    {
      id: 'intellectual-property',
      title: '7. Intellectual Property',
      paragraphs: [
        `The Service, its software, documentation, design and the ${COMPANY.productName} name and logo belong to ${COMPANY.legalEntity} and its licensors. These terms give you a limited, non-exclusive, non-transferable right to use the Service while your account is open; they transfer no other rights.`,
        'If you send us suggestions or feedback, we may use them without any obligation to you.',
      ],
    },
    {
      id: 'availability-and-support',
      title: '8. Service Availability and Support',
      paragraphs: [
        'We work to keep the Service available at all times, but it may be interrupted for maintenance, updates or reasons outside our control. Except where an Enterprise agreement sets a service level (SLA), the Service is provided without any availability guarantee.',
        'The support you receive depends on your plan:',
      ],
      list: [
        'Free: community support',
        'Starter: email support during business hours',
        'Professional: priority email and phone support',
        'Enterprise: dedicated support with an SLA',
      ],
    },
    {
      id: 'limitation-of-liability',
      title: '9. Limitation of Liability',
      paragraphs: [
        'The Service is provided "as is" and "as available". To the fullest extent the law allows, we disclaim all warranties, express or implied, including merchantability, fitness for a particular purpose and non-infringement.',
        `To the fullest extent the law allows, ${COMPANY.legalEntity} is not liable for indirect, incidental, special, consequential or punitive damages, or for lost profits, revenue, data or goodwill. Our total liability for any claim arising from the Service is limited to the amounts you paid us in the 12 months before the event that gave rise to the claim.`,
      ],
    },
    {
      id: 'indemnification',
      title: '10. Indemnification',
      paragraphs: [
        `You agree to defend, indemnify and hold harmless ${COMPANY.legalEntity} and its officers, employees and agents from any claim, damage, loss or expense (including reasonable legal fees) arising from your use of the Service, your content, or your breach of these terms or of the law.`,
      ],
    },
    {
      id: 'termination',
      title: '11. Termination',
      paragraphs: [
        'You may stop using the Service at any time, and you can delete your account in Settings; this deletes your account and all of its data at once.',
        'We may suspend or close your account if you break these terms, if your use harms the Service or other users, or if the law requires it. Where we can, we will tell you first and give you the chance to put things right. Sections 6, 7, 9, 10 and 12 survive termination.',
      ],
    },
    {
      id: 'governing-law',
      title: '12. Governing Law',
      paragraphs: [
        'These terms are governed by the laws of the State of California, United States, without regard to its conflict of laws rules. Disputes will be brought before the state or federal courts located in San Francisco County, California, and you and we consent to their jurisdiction.',
      ],
    },
    {
      id: 'changes-to-terms',
      title: '13. Changes to Terms',
      paragraphs: [
        'We may change these terms. When we do, we update the date at the top of this page, and we tell you of material changes by email or in the app before they take effect. If you keep using the Service after a change takes effect, you accept the new terms.',
      ],
    },
    {
      id: 'contact',
      title: '14. Contact Information',
      paragraphs: [
        `Questions about these terms: ${COMPANY.supportEmail}.`,
        `${COMPANY.legalEntity}, ${COMPANY.postalAddress}.`,
      ],
    },
  ],
};
