// What other capabilities may ask of DMARC.
export { dmarcStorage } from './dmarc.repo';
// The PTR name of source IPs and the organisation they belong to (suggested IPs leave mailbox providers' servers out).
export { nameSources } from './source-names';
// What a mail proved it came from (DKIM, DMARC): feedback-loop complaints are judged by it as mailed reports are.
export { provenSenderDomains, unauthenticatedReason } from './report-sender';
