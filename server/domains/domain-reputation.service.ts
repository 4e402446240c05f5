// What the reputation checks ask of domains and store on them (ADR 048): the domain's reputation score and factors,
// its RDAP registration, and the user's domains to check. The domains capability owns the table; these are its
// operations for the reputation capability.
export {
  domainsDueForRegistration,
  findDomainForRegistration,
  listDomainOwnerIds,
  listDomainTargets,
  listUserDomainReputation,
  lockDomainRows,
  ownDomainNames,
  saveRegistration,
  updateDomainReputation,
  type DomainReputationRow,
  type DomainTarget,
} from './domain-reputation.repo';
