import pino from 'pino';
import type { TestApp } from '../test/test-app';
import { runReputationCheck } from './reputation-run.service';

/** Runs a user's reputation check on the test app now, as the scheduled job would, without its logs. */
export function runReputationCheckNow(t: TestApp, userId: number) {
  return runReputationCheck({ db: t.database.db, dns: t.dns, log: pino({ level: 'silent' }), jobs: t.jobs }, userId);
}
