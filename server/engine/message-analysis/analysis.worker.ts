// A thread of the message-analysis pool (analysis-pool.ts): analyseMessage off the main event loop.
// Built as its own entry beside dist/server.js (scripts/build.mjs).
import { workerData } from 'node:worker_threads';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { createResolver } from '../../platform/dns/resolver';
import type { MessageEnvelope } from '../../platform/message-analyser';
import { serveTasks } from '../../platform/workers/serve-tasks';
import { analyseMessage } from './analyse-message';
import type { AnalysisTask, AnalysisWorkerData } from './analysis-pool';

const { dns, env } = workerData as AnalysisWorkerData;
// The same DNS_SERVERS and resolver settings as the main thread; each thread keeps its own cache.
const resolver = createResolver(dns);

serveTasks<AnalysisTask, InboxTestReport>(({ raw, envelope }) =>
  analyseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), envelope as MessageEnvelope | null, {
    dns: resolver,
    env,
  }),
);
