// What other capabilities may ask of domains: whether a user has a domain that passes its DNS checks
// (an inbox test needs one), and who verified a domain (mailed DMARC reports go to them). Everything
// else about domains belongs to the domains routes.
export { hasHealthyDomain, verifiedOwnersOf } from './domains.repo';
