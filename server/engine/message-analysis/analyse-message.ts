import { dmarcReportAddress } from '@contracts/dmarc';
import type { InboxTestReport, ScoringEngine, SpamAssassinReport } from '@contracts/inbox-tests';
import { normaliseIp } from '../../platform/dns/ip-address';
import type { DnsResolver } from '../../platform/dns/resolver';
import type { Env } from '../../platform/env';
import type { MessageEnvelope } from '../../platform/message-analyser';
import { analyzeAuthentication, type AuthenticationResults } from './checks/authentication';
import {
  authenticationFindings,
  authenticationNotChecked,
  authenticationUnavailable,
} from './checks/authentication-findings';
import {
  analyzeConnectingIp,
  lookUpReverseDns,
  type ConnectingIpReport,
  type ReverseDns,
} from './checks/connecting-ip';
import { analyzeContent } from './checks/content';
import type { AnalysisFinding } from './checks/finding';
import { connectingIpFindings, connectingIpUnavailable } from './checks/reputation-findings';
import { scoreFindings, verdict } from './checks/score';
import { checkWithSpamd, spamAssassinFindings } from './checks/spamassassin';
import { withTraceHeaders } from './checks/trace-headers';

export interface AnalyseDeps {
  dns: DnsResolver;
  env: Pick<Env, 'INBOUND_DOMAIN' | 'SPAMD_HOST'>;
}

interface Part<T> {
  result: T | null;
  findings: AnalysisFinding[];
}

/**
 * The mail-tester style report of one message: authentication, the connecting IP, content and
 * SpamAssassin, run side by side, their findings scored together (ADR 011). Never throws on what a
 * sender can put in a message or envelope: a part that fails says so in a finding instead.
 */
export async function analyseMessage(
  raw: Buffer,
  envelope: MessageEnvelope | null,
  deps: AnalyseDeps,
): Promise<InboxTestReport> {
  const ip = envelope ? normaliseIp(envelope.remoteIp) : null;
  // SpamAssassin needs the reverse DNS for the Received field it reads; the blocklists need not wait for it.
  const sender = ip ? { ip, reverse: lookUpReverseDns(deps.dns, ip) } : null;
  const [authentication, connectingIp, content, spamAssassin] = await Promise.all([
    envelope
      ? authenticate(raw, envelope, deps)
      : Promise.resolve<Part<AuthenticationResults>>({ result: null, findings: [authenticationNotChecked()] }),
    envelope
      ? checkConnectingIp(envelope.remoteIp, sender, deps.dns)
      : Promise.resolve<Part<ConnectingIpReport>>({ result: null, findings: [] }),
    analyzeContent(raw),
    askSpamAssassin(raw, envelope, sender?.reverse ?? null, deps.env),
  ]);
  const findings = [
    ...authentication.findings,
    ...connectingIp.findings,
    ...content.findings,
    ...(spamAssassin ? spamAssassinFindings(spamAssassin) : []),
  ];
  const { score, deductions } = scoreFindings(findings);
  return {
    simulated: envelope === null,
    analysedAt: new Date().toISOString(),
    score,
    verdict: verdict(score),
    deductions,
    findings,
    envelope,
    authentication: authentication.result,
    connectingIp: connectingIp.result,
    content: content.facts,
    spamAssassin,
    engines: scoringEngines(spamAssassin),
  };
}

/**
 * spamd's verdict on the message as our MX passes it on: with the Return-Path and Received fields
 * of the SMTP session, so its rules on the relay, reverse DNS and HELO can fire. Null without SPAMD_HOST.
 */
async function askSpamAssassin(
  raw: Buffer,
  envelope: MessageEnvelope | null,
  reverse: Promise<ReverseDns> | null,
  env: AnalyseDeps['env'],
): Promise<SpamAssassinReport | null> {
  if (!env.SPAMD_HOST) return null;
  const message = envelope
    ? withTraceHeaders(raw, envelope, env.INBOUND_DOMAIN, (await reverse?.catch(() => null))?.confirmedName ?? null)
    : raw;
  return checkWithSpamd(message, env.SPAMD_HOST);
}

function scoringEngines(spamAssassin: SpamAssassinReport | null): ScoringEngine[] {
  return [
    { id: 'inboxpulse', name: 'InboxPulse checks', status: 'ran' },
    {
      id: 'spamassassin',
      name: 'SpamAssassin',
      status: spamAssassin === null ? 'not-configured' : spamAssassin.error === null ? 'ran' : 'failed',
    },
  ];
}

async function authenticate(
  raw: Buffer,
  envelope: MessageEnvelope,
  deps: AnalyseDeps,
): Promise<Part<AuthenticationResults>> {
  let results: AuthenticationResults;
  try {
    // mailauth turns DNS failures into temperror results itself; what reaches here is a bug or a message it cannot
    // read.
    results = await analyzeAuthentication(
      raw,
      { ip: envelope.remoteIp, helo: envelope.helo, mailFrom: envelope.mailFrom },
      deps.dns,
      deps.env.INBOUND_DOMAIN,
    );
  } catch (err) {
    return { result: null, findings: [authenticationUnavailable(err)] };
  }
  return { result: results, findings: authenticationFindings(results, dmarcReportAddress(deps.env.INBOUND_DOMAIN)) };
}

async function checkConnectingIp(
  remoteIp: string,
  sender: { ip: string; reverse: Promise<ReverseDns> } | null,
  dns: DnsResolver,
): Promise<Part<ConnectingIpReport>> {
  if (sender === null)
    return {
      result: null,
      findings: [connectingIpUnavailable(remoteIp, 'The SMTP session recorded no valid IP address.')],
    };
  const { ip, reverse } = sender;
  try {
    const report = await analyzeConnectingIp(dns, ip, reverse);
    return { result: report, findings: connectingIpFindings(report) };
  } catch (err) {
    return {
      result: null,
      findings: [connectingIpUnavailable(ip, `The check failed: ${err instanceof Error ? err.message : String(err)}.`)],
    };
  }
}
