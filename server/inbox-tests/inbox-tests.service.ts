/** What other capabilities may ask of inbox tests. */
export { userTestMessages } from './inbox-tests.repo';
