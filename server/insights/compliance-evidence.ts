import { and, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DomainChecks } from '@contracts/domains';
import { InboxTestReport } from '@contracts/inbox-tests';
import type { Executor } from '../platform/db/client';
import { deliveryEvents, domains, inboxTestReports, inboxTests, postmasterStats } from '../platform/db/schema/index';

/*
 * What the compliance scorecard of a domain is judged from (ADR 055): the domain's last DNS check, the
 * latest inbox-test messages sent From it, Gmail's Postmaster figures, complaint and delivery events and the
 * SMTP replies of the last EVIDENCE_DAYS. Reads only; every query names the owner.
 */

export const EVIDENCE_DAYS = 30;
/** Recent test messages looked through for the ones From the domain: older ones say little about today's setup. */
const RECENT_TESTS = 50;

/**
 * Facts the analysis stores with a report that the API's report leaves out (server/engine/message-analysis/checks/
 * authentication.ts). Each is absent from reports stored before it.
 */
const StoredFacts = z.object({
  authentication: z
    .object({
      fromHeaderFields: z.number().int().optional(),
      headerFieldCounts: z.record(z.string(), z.number().int()).optional(),
      dkim: z.array(z.object({ signedHeaders: z.array(z.string()).optional() })).optional(),
    })
    .nullable()
    .optional(),
});
export type StoredFacts = z.infer<typeof StoredFacts>;

export interface TestMessageEvidence {
  testId: number;
  receivedAt: string;
  report: InboxTestReport;
  facts: StoredFacts;
}

export interface PostmasterDay {
  date: string;
  spamRatio: number | null;
  inboundEncryptionRatio: number | null;
}

/** Delivered and complaint events of the domain per mailbox provider (gmail, yahoo, outlook, apple, other). */
export interface ProviderEventCounts {
  mailboxProvider: string;
  delivered: number;
  complaints: number;
  lastComplaintAt: string | null;
}

export interface ReplyEvent {
  mailboxProvider: string;
  smtpResponse: string;
  enhancedStatus: string | null;
  occurredAt: string;
}

export interface ComplianceEvidenceData {
  domainId: number;
  domain: string;
  checks: DomainChecks | null;
  lastCheckedAt: string | null;
  /** Newest first. */
  testMessages: TestMessageEvidence[];
  /** null: no Postmaster Tools figures were ever imported for the domain (not connected, or not verified there). */
  postmaster: PostmasterDay[] | null;
  events: ProviderEventCounts[];
  replies: ReplyEvent[];
}

/** The evidence for one of the user's domains, or undefined when the user has no such domain. */
export async function loadComplianceEvidence(
  ex: Executor,
  userId: number,
  domainId: number,
  now: Date,
): Promise<ComplianceEvidenceData | undefined> {
  const [row] = await ex
    .select({ id: domains.id, domain: domains.domain, checks: domains.checks, lastCheckedAt: domains.lastCheckedAt })
    .from(domains)
    .where(and(eq(domains.id, domainId), eq(domains.userId, userId)));
  if (!row) return undefined;
  const since = new Date(now.getTime() - EVIDENCE_DAYS * 86_400_000);
  return {
    domainId: row.id,
    domain: row.domain,
    checks: row.checks ?? null,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    testMessages: await testMessagesFrom(ex, userId, row.domain),
    postmaster: await postmasterDays(ex, userId, row.domain, since),
    events: await providerEventCounts(ex, userId, row.domain, since),
    replies: await replyEvents(ex, userId, row.domain, since),
  };
}

/** The user's domain ids, for the figures over all of them (the dashboard's count, the alert evaluation). */
export async function listUserDomainIds(ex: Executor, userId: number): Promise<number[]> {
  const rows = await ex
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), isNotNull(domains.lastCheckedAt)));
  return rows.map((r) => r.id);
}

/** A From address is the domain's when its domain is the domain or a subdomain of it (a bulk stream's own subdomain). */
function isFrom(address: string, domain: string): boolean {
  const host = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}

async function testMessagesFrom(ex: Executor, userId: number, domain: string): Promise<TestMessageEvidence[]> {
  const rows = await ex
    .select({ testId: inboxTests.id, receivedAt: inboxTests.receivedAt, report: inboxTestReports.report })
    .from(inboxTestReports)
    .innerJoin(inboxTests, eq(inboxTests.id, inboxTestReports.testId))
    .where(eq(inboxTests.userId, userId))
    .orderBy(desc(inboxTestReports.createdAt), desc(inboxTests.id))
    .limit(RECENT_TESTS);
  return rows.flatMap((r) => {
    const parsed = InboxTestReport.safeParse(r.report);
    if (!parsed.success || parsed.data.simulated) return [];
    const from = parsed.data.authentication?.headerFrom ?? [];
    if (!from.some((address) => isFrom(address, domain))) return [];
    const facts = StoredFacts.safeParse(r.report);
    return [
      {
        testId: r.testId,
        receivedAt: (r.receivedAt ?? new Date(parsed.data.analysedAt)).toISOString(),
        report: parsed.data,
        facts: facts.success ? facts.data : {},
      },
    ];
  });
}

async function postmasterDays(
  ex: Executor,
  userId: number,
  domain: string,
  since: Date,
): Promise<PostmasterDay[] | null> {
  const rows = await ex
    .select({
      date: postmasterStats.date,
      spamRatio: postmasterStats.userReportedSpamRatio,
      inboundEncryptionRatio: postmasterStats.inboundEncryptionRatio,
    })
    .from(postmasterStats)
    .where(and(eq(postmasterStats.userId, userId), eq(postmasterStats.domain, domain)))
    .orderBy(desc(postmasterStats.date))
    .limit(EVIDENCE_DAYS);
  if (rows.length === 0) return null;
  const first = since.toISOString().slice(0, 10);
  return rows.filter((r) => r.date >= first);
}

async function providerEventCounts(
  ex: Executor,
  userId: number,
  domain: string,
  since: Date,
): Promise<ProviderEventCounts[]> {
  const rows = await ex
    .select({
      mailboxProvider: deliveryEvents.mailboxProvider,
      delivered: sql<number>`count(*) filter (where ${deliveryEvents.eventType} = 'delivered')`.mapWith(Number),
      complaints: sql<number>`count(*) filter (where ${deliveryEvents.eventType} = 'complaint')`.mapWith(Number),
      lastComplaintAt: sql<Date | null>`max(${deliveryEvents.occurredAt}) filter (where ${deliveryEvents.eventType} = 'complaint')`,
    })
    .from(deliveryEvents)
    .where(
      and(
        eq(deliveryEvents.userId, userId),
        eq(deliveryEvents.domain, domain),
        gte(deliveryEvents.occurredAt, since),
        inArray(deliveryEvents.eventType, ['delivered', 'complaint']),
      ),
    )
    .groupBy(deliveryEvents.mailboxProvider);
  return rows.map((r) => ({
    mailboxProvider: r.mailboxProvider,
    delivered: r.delivered,
    complaints: r.complaints,
    lastComplaintAt: r.lastComplaintAt ? new Date(r.lastComplaintAt).toISOString() : null,
  }));
}

/** Bounces and deferrals of the domain that carry the receiver's reply: the scorecard picks the ones citing a rule. */
async function replyEvents(ex: Executor, userId: number, domain: string, since: Date): Promise<ReplyEvent[]> {
  const rows = await ex
    .select({
      mailboxProvider: deliveryEvents.mailboxProvider,
      smtpResponse: deliveryEvents.smtpResponse,
      enhancedStatus: deliveryEvents.enhancedStatus,
      occurredAt: deliveryEvents.occurredAt,
    })
    .from(deliveryEvents)
    .where(
      and(
        eq(deliveryEvents.userId, userId),
        eq(deliveryEvents.domain, domain),
        gte(deliveryEvents.occurredAt, since),
        inArray(deliveryEvents.eventType, ['bounced', 'deferred']),
        isNotNull(deliveryEvents.smtpResponse),
      ),
    )
    .orderBy(desc(deliveryEvents.occurredAt))
    .limit(5000);
  return rows.map((r) => ({
    mailboxProvider: r.mailboxProvider,
    smtpResponse: r.smtpResponse!,
    enhancedStatus: r.enhancedStatus,
    occurredAt: r.occurredAt.toISOString(),
  }));
}
