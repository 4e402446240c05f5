import { CLAIMS } from './features';

/** Three generic testimonials and the trust badges of the landing page (part 1, sections 1 and 3). */
export interface Testimonial {
  name: string;
  title: string;
  company: string;
  content: string;
  /** 1 to 5 stars. */
  rating: 1 | 2 | 3 | 4 | 5;
}

export const TESTIMONIALS: Testimonial[] = [
  {
    name: 'Sarah Mitchell',
    title: 'Email Marketing Manager',
    company: 'Brightline Retail',
    content:
      'Our promotions were quietly landing in spam at two providers. The first inbox test showed us exactly where, and fixing our DKIM setup brought our inbox rate back within a week.',
    rating: 5,
  },
  {
    name: 'David Chen',
    title: 'Head of Infrastructure',
    company: 'Relaymark',
    content:
      'We run our own MTAs. Having blacklist checks and reputation alerts in Slack means we hear about a listing before our customers do.',
    rating: 5,
  },
  {
    name: 'Priya Raman',
    title: 'Lifecycle Marketing Lead',
    company: 'Fernway Health',
    content:
      'Setup took minutes: verify the domain, connect our ESP, run a test. The health score gives the whole team one number to watch.',
    rating: 5,
  },
];

export interface TrustBadge {
  id: string;
  label: string;
}

/** Badges drawn from what the product does; no certifications the spec does not state. */
export const TRUST_BADGES: TrustBadge[] = [
  { id: 'encryption', label: 'Encrypted credentials' },
  { id: 'regions', label: `${CLAIMS.regions} global regions` },
  { id: 'setup', label: `Setup in under ${CLAIMS.setupMinutes} minutes` },
  { id: 'money-back', label: '30-day money-back guarantee' },
];
