// What other capabilities may ask of domains: whether a user has a domain that passes its DNS checks
// (an inbox test needs one). Everything else about domains belongs to the domains routes.
export { hasHealthyDomain } from './domains.repo';
