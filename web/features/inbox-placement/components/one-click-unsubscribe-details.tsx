import type { ReactNode } from 'react';
import type { OneClickUnsubscribeResult } from '@contracts/inbox-tests';
import { Pill, type Tone } from '../../../components/ui/pill';
import { formatCount } from '../../../lib/format';
import { AnalysisSection, Code, Facts, yesNo } from './analysis-parts';

type Outcome = OneClickUnsubscribeResult['outcome'];

const VERDICTS: Record<Outcome, { label: string; tone: Tone }> = {
  accepted: { label: 'Accepted', tone: 'good' },
  refused: { label: 'Refused', tone: 'bad' },
  requires_get: { label: 'Required a GET', tone: 'bad' },
  requires_confirmation: { label: 'Required a confirmation', tone: 'bad' },
  requires_login: { label: 'Required a login', tone: 'bad' },
  redirected: { label: 'Redirected', tone: 'bad' },
  // Not the sender's fault for certain: the link could not be reached from here.
  timed_out: { label: 'Timed out', tone: 'warn' },
  blocked: { label: 'Blocked', tone: 'warn' },
  unreachable: { label: 'Unreachable', tone: 'warn' },
  not_https: { label: 'Not one-click (http:)', tone: 'bad' },
  not_offered: { label: 'Not offered', tone: 'bad' },
  turned_off: { label: 'Not tested', tone: 'none' },
};

/**
 * The live one-click unsubscribe test (RFC 8058): what the message's unsubscribe link answered to the POST a mailbox
 * provider sends, and, when it is not what the RFC asks, why.
 */
export function OneClickUnsubscribeDetails({ result }: { result: OneClickUnsubscribeResult }) {
  const verdict = VERDICTS[result.outcome];
  return (
    <AnalysisSection title="One-click unsubscribe test" testId="analysis-one-click-unsubscribe">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Pill tone={verdict.tone}>{verdict.label}</Pill>
        <span>{result.summary}</span>
      </p>
      <Facts items={facts(result)} />
    </AnalysisSection>
  );
}

/** The link, and what it answered when the POST was sent; the RFC's reason when the link fails it. */
function facts(result: OneClickUnsubscribeResult): Array<[string, ReactNode]> {
  const items: Array<[string, ReactNode]> = [];
  if (result.url) items.push(['Link', <Code key="url">{result.url}</Code>]);
  if (result.testedAt !== null) {
    items.push(['Status', result.status === null ? 'No answer' : String(result.status)]);
    items.push(['Time', result.durationMs === null ? 'N/A' : `${formatCount(result.durationMs)} ms`]);
    items.push([
      'Redirects',
      result.redirects.length === 0 ? (
        'None'
      ) : (
        <ol key="redirects" className="space-y-0.5">
          {result.redirects.map((hop, index) => (
            <li key={index}>
              {hop.status} to <Code>{hop.location}</Code>
            </li>
          ))}
        </ol>
      ),
    ]);
  }
  items.push(['List-Unsubscribe header', yesNo(result.hasListUnsubscribe)]);
  if (result.rfcReason) items.push(['Why it fails', result.rfcReason]);
  return items;
}
