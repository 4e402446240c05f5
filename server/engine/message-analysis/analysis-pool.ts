import { availableParallelism } from 'node:os';
import type { InboxTestReport } from '@contracts/inbox-tests';
import type { ResolverOptions } from '../../platform/dns/resolver';
import type { MessageAnalyser, MessageEnvelope } from '../../platform/message-analyser';
import { createThreadPool } from '../../platform/workers/thread-pool';
import type { AnalyseDeps } from './analyse-message';

export { TaskStoppedError as AnalysisStoppedError } from '../../platform/workers/thread-pool';

export interface AnalysisPoolOptions {
  /** The resolver settings of the app's own resolver (DNS_SERVERS), so both ask the same servers. */
  dns: ResolverOptions;
  env: AnalyseDeps['env'];
  threads?: number;
  /** Analyses one thread runs at once: most of an analysis is waiting for DNS answers. */
  perThread?: number;
  timeLimitMs?: number;
}

/** What a thread is started with. */
export interface AnalysisWorkerData {
  dns: ResolverOptions;
  env: AnalyseDeps['env'];
}

/**
 * One message to analyse. The bytes are copied to the thread, unless they are in shared memory (a large received body:
 * platform/smtp/inbound-body.ts), which the thread reads where it is: a copy of megabytes would hold the event loop.
 */
export interface AnalysisTask {
  raw: Uint8Array;
  envelope: MessageEnvelope | null;
}

/** Normal messages take milliseconds; DNS timeouts (3 s, two tries) across SPF includes can take tens of seconds. */
export const ANALYSIS_TIME_LIMIT_MS = 30_000;
/**
 * Leave a core for the event loop and PostgreSQL. On 2 cores, bench:smtp ran no faster with 2
 * threads than with 1, and each thread costs about 60 MB.
 */
export const defaultAnalysisThreads = () => Math.min(4, Math.max(1, availableParallelism() - 1));
/** Most of an analysis is waiting for DNS answers: a thread works on several messages at once. */
const ANALYSES_PER_THREAD = 8;
// A message is at most SMTP_MAX_MESSAGE_BYTES (10 MB by default); an 8 MB header block of a million
// lines takes mailparser and mailauth over 300 MB (smtp-hostile.test.ts). A thread that needs more
// ends, and its messages are analysed again one at a time (thread-pool.ts).
const HEAP_LIMIT_MB = 512;

// The bundle puts the worker beside dist/server.js; from source it is the .ts file beside this one.
const workerModule = new URL(
  import.meta.url.endsWith('.ts') ? './analysis.worker.ts' : './analysis.worker.js',
  import.meta.url,
);

/**
 * The one way the product analyses a message (received or simulated): analyseMessage in a worker
 * thread, so parsing, DKIM and the content checks never hold up the event loop that answers HTTP and
 * SMTP. A message whose analysis overruns the time limit, or takes its thread's memory, fails with
 * AnalysisStoppedError (once it did so running alone: thread-pool.ts): the same message would do it
 * again, so it is reported, not retried. The AppContext holds it as the platform's MessageAnalyser.
 */
export function startAnalysisPool(options: AnalysisPoolOptions): MessageAnalyser {
  const pool = createThreadPool<AnalysisTask, InboxTestReport>({
    name: 'message analysis',
    module: workerModule,
    workerData: {
      dns: options.dns,
      env: { INBOUND_DOMAIN: options.env.INBOUND_DOMAIN, SPAMD_HOST: options.env.SPAMD_HOST },
    } satisfies AnalysisWorkerData,
    size: options.threads ?? defaultAnalysisThreads(),
    tasksPerThread: options.perThread ?? ANALYSES_PER_THREAD,
    taskTimeoutMs: options.timeLimitMs ?? ANALYSIS_TIME_LIMIT_MS,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB },
  });
  return {
    analyse: (raw, envelope) => pool.run({ raw, envelope }),
    close: () => pool.close(),
  };
}
