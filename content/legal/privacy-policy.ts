import { COMPANY } from '../company';
import type { LegalDocument } from './legal-document';

/**
 * The Privacy Policy (/privacy-policy): the sections and date of part 2, section 2, written for
 * what this product collects and does. `retention` is one line per plan ("Free: 30 days"): the
 * page builds it from the limits the server enforces (contracts/plans.ts, ADR 032), so the text
 * cannot promise another period; content stays below contracts and does not import them.
 */
export const privacyPolicy = (retention: string[]): LegalDocument => ({
  title: 'Privacy Policy',
  lastUpdated: 'December 7, 2024',
  intro: `This Privacy Policy explains what information ${COMPANY.legalEntity} collects when you use ${COMPANY.productName}, how we use, share and protect it, and the choices and rights you have.`,
  sections: [
    {
      id: 'information-we-collect',
      title: '1. Information We Collect',
      paragraphs: ['We collect only what the Service needs to work:'],
      list: [
        'Account information: your username, email address and password (stored only as a salted argon2id hash), and the coupon code you enter, if any.',
        'Monitoring data you add: sending domains and their DNS records, IP addresses and labels, alert settings and rules.',
        'Messages you send to our test addresses for inbox placement tests, including their headers and content, and the DMARC aggregate reports you send or upload.',
        'Data from integrations you connect: delivery and engagement figures from your email service providers and Google Postmaster Tools, and delivery events posted by your mail servers. The credentials for these integrations are stored encrypted.',
        'Billing information: your plan and subscription status. Card payments are handled by our payment provider; we never receive your full card number.',
        'Technical information: your sessions (with the browser and IP address they came from) and the use of your API key, to keep your account secure and apply rate limits.',
      ],
    },
    {
      id: 'how-we-use-information',
      title: '2. How We Use Information',
      paragraphs: ['We use your information to:'],
      list: [
        'run inbox placement tests, check your DNS records and blocklist listings, analyse your reports and show you the results;',
        'send you the alerts you ask for, and the emails your account needs (verification, password reset);',
        'keep the Service and your account secure, enforce plan limits and prevent abuse;',
        'bill your subscription and answer your support requests.',
      ],
    },
    {
      id: 'how-we-share-information',
      title: '3. How We Share Information',
      paragraphs: [
        'We do not sell your personal information, and we do not share it for advertising.',
        'We share information only with service providers who help us run the Service (hosting, email delivery, payment processing) under contracts that protect it; with the third-party services you connect yourself (for example your email service provider, Slack, or a webhook endpoint you choose), and only what they need; and when the law requires it, or to protect the rights and safety of our users and of the Service.',
      ],
    },
    {
      id: 'data-security',
      title: '4. Data Security',
      paragraphs: [
        'Passwords are stored as argon2id hashes; API keys, webhook tokens and password-reset links are stored only as hashes; the credentials of your integrations are encrypted at rest (AES-256-GCM). Sessions are kept on our servers, and are ended when you log out, reset your password or delete your account.',
        'No system is perfectly secure. If a breach affects your personal information, we will tell you without undue delay.',
      ],
    },
    {
      id: 'data-retention',
      title: '5. Data Retention',
      paragraphs: [
        'We keep your account information while your account is open. Monitoring data (test results, reports, delivery events and metrics) is kept for the retention period of your plan and deleted after it:',
      ],
      list: retention,
      after: ['When you delete your account, your account and all of its data are deleted at once.'],
    },
    {
      id: 'your-rights',
      title: '6. Your Rights',
      paragraphs: [
        'Depending on where you live, you may have the right to access, correct, delete or receive a copy of your personal information, and to object to or restrict how we process it.',
        `You can correct and delete most information yourself in the app, and delete your account in Settings. For anything else, write to ${COMPANY.supportEmail}; we answer within 30 days. You may also complain to your data protection authority.`,
      ],
    },
    {
      id: 'international-transfers',
      title: '7. International Data Transfers',
      paragraphs: [
        `${COMPANY.legalEntity} is based in the United States, and your information may be processed there and in other countries where our service providers work. When we transfer personal information out of the European Economic Area, the United Kingdom or Switzerland, we use safeguards the law recognizes, such as the European Commission's Standard Contractual Clauses.`,
      ],
    },
    {
      id: 'cookies',
      title: '8. Cookies',
      paragraphs: [
        'We set two essential cookies: the session cookie that keeps you signed in (httpOnly, for up to 30 days), and a remember-device cookie that marks a browser you signed in on, so that someone guessing your password cannot lock you out of it (httpOnly, sent only when you sign in, for up to 180 days, holding your account number and a signature). We set no analytics or advertising cookies today; the choice you make in the cookie banner is kept in your browser’s local storage and applies to any optional cookie we add later.',
        'You can block or delete cookies in your browser, but you cannot sign in without the session cookie.',
      ],
    },
    {
      id: 'changes-to-policy',
      title: '9. Changes to This Policy',
      paragraphs: [
        'We may update this policy. When we do, we change the date at the top of this page, and we tell you of material changes by email or in the app before they take effect.',
      ],
    },
    {
      id: 'contact',
      title: '10. Contact Us',
      paragraphs: [
        `Questions about this policy or your information: ${COMPANY.supportEmail}.`,
        `${COMPANY.legalEntity}, ${COMPANY.postalAddress}.`,
      ],
    },
  ],
});
