import type { InboxTestReport } from '@contracts/inbox-tests';
import { normaliseIp } from '../dns/ip-address';
import type { DnsResolver } from '../dns/resolver';
import type { Env } from '../env';
import { analyzeAuthentication, type AuthenticationResults } from './checks/authentication';
import { authenticationFindings, authenticationNotChecked, authenticationUnavailable } from './checks/authentication-findings';
import { analyzeConnectingIp, type ConnectingIpReport } from './checks/connecting-ip';
import { analyzeContent } from './checks/content';
import type { AnalysisFinding } from './checks/finding';
import { connectingIpFindings, connectingIpUnavailable } from './checks/reputation-findings';
import { scoreFindings, verdict } from './checks/score';
import { checkWithSpamd, spamAssassinFindings } from './checks/spamassassin';

/** What the SMTP session of a received message showed; null for a simulated message. */
export interface MessageEnvelope {
  remoteIp: string;
  helo: string;
  mailFrom: string;
}

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
export async function analyseMessage(raw: Buffer, envelope: MessageEnvelope | null, deps: AnalyseDeps): Promise<InboxTestReport> {
  const [authentication, connectingIp, content, spamAssassin] = await Promise.all([
    envelope ? authenticate(raw, envelope, deps) : Promise.resolve<Part<AuthenticationResults>>({ result: null, findings: [authenticationNotChecked()] }),
    envelope ? checkConnectingIp(envelope.remoteIp, deps.dns) : Promise.resolve<Part<ConnectingIpReport>>({ result: null, findings: [] }),
    analyzeContent(raw),
    deps.env.SPAMD_HOST ? checkWithSpamd(raw, deps.env.SPAMD_HOST) : Promise.resolve(null),
  ]);
  const findings = [...authentication.findings, ...connectingIp.findings, ...content.findings, ...(spamAssassin ? spamAssassinFindings(spamAssassin) : [])];
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
  };
}

async function authenticate(raw: Buffer, envelope: MessageEnvelope, deps: AnalyseDeps): Promise<Part<AuthenticationResults>> {
  let results: AuthenticationResults;
  try {
    // mailauth turns DNS failures into temperror results itself; what reaches here is a bug or a message it cannot read.
    results = await analyzeAuthentication(raw, { ip: envelope.remoteIp, helo: envelope.helo, mailFrom: envelope.mailFrom }, deps.dns, deps.env.INBOUND_DOMAIN);
  } catch (err) {
    return { result: null, findings: [authenticationUnavailable(err)] };
  }
  return { result: results, findings: authenticationFindings(results) };
}

async function checkConnectingIp(remoteIp: string, dns: DnsResolver): Promise<Part<ConnectingIpReport>> {
  const ip = normaliseIp(remoteIp);
  if (ip === null) return { result: null, findings: [connectingIpUnavailable(remoteIp, 'The SMTP session recorded no valid IP address.')] };
  try {
    const report = await analyzeConnectingIp(dns, ip);
    return { result: report, findings: connectingIpFindings(report) };
  } catch (err) {
    return { result: null, findings: [connectingIpUnavailable(ip, `The check failed: ${err instanceof Error ? err.message : String(err)}.`)] };
  }
}
