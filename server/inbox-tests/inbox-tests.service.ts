// What other capabilities may ask of inbox tests.
export { inboxTestSenderIps } from './inbox-tests.repo';
