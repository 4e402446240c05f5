import type { z } from 'zod';

/** What a sender knows of a job: its queue name and the shape of its data. */
export interface JobType<T> {
  name: string;
  schema: z.ZodType<T>;
}

/**
 * A job's definition (`<name>.job.ts`), apart from its runner (`<name>.runner.ts`, defineRunner), so a
 * sender below the runner can queue it: the SMTP listener queues process-inbound-message, whose runner
 * (server/process-inbound-message.runner.ts) needs several capabilities.
 */
export function jobType<T>(name: string, schema: z.ZodType<T>): JobType<T> {
  return { name, schema };
}

export interface SendOptions {
  /** Names the item the job is for; with the 'stately' policy one such job waits at a time. */
  singletonKey?: string;
  startAfterSeconds?: number;
  /** Jobs with a higher priority are fetched first (default 0): alert webhooks before bulk ones. */
  priority?: number;
}

/** Queues jobs. The data is typed by the job's schema, and checked against it again on send. */
export interface JobSender {
  send<T>(job: JobType<T>, data: T, options?: SendOptions): Promise<void>;
}
