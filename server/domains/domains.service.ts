// What other capabilities may ask of domains: a user's domains (an alert rule names one of them), whether a user has a domain that passes its DNS checks
// (an inbox test needs one), and who verified a domain (mailed DMARC reports go to them). Everything
// else about domains belongs to the domains routes.
export { hasHealthyDomain, listUserDomains, verifiedOwnersOf } from './domains.repo';
