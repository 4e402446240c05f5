// What other capabilities may ask of domains: whether a user has a domain that passes its DNS checks
// (an inbox test needs one), who verified a domain (mailed DMARC reports go to them), and a user's
// domains with their check statuses (delivery events explain policy bounces with them). Everything
// else about domains belongs to the domains routes.
export { findUserDomain, hasHealthyDomain, listUserDomains, verifiedOwnersOf } from './domains.repo';
