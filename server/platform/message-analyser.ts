import type { InboxTestReport } from '@contracts/inbox-tests';

/** What the SMTP session of a received message showed; null for a simulated message. */
export interface MessageEnvelope {
  remoteIp: string;
  helo: string;
  mailFrom: string;
  /** The TLS the sending server used ("TLSv1.3 TLS_AES_256_GCM_SHA384"), 'none' over plain SMTP; absent when not known. */
  tls?: string | null;
}

/**
 * How the AppContext analyses a message. The platform names it and the engine's analysis pool
 * (server/engine/message-analysis/analysis-pool.ts) is what runs: the context carries the analyser
 * without the plumbing importing the engine.
 */
export interface MessageAnalyser {
  analyse(raw: Buffer, envelope: MessageEnvelope | null): Promise<InboxTestReport>;
  close(): Promise<void>;
}
