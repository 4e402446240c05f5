/** What other capabilities may ask of inbox tests. */
export { userTestMessages, latestOneClickUnsubscribe, type LatestOneClickUnsubscribe } from './inbox-tests.repo';
