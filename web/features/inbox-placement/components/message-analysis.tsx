import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { useInboxTestReport } from '../api';
import { AnalysisFindings } from './analysis-findings';
import { AnalysisSummary } from './analysis-summary';
import { AuthenticationDetails } from './authentication-details';
import { ConnectingIpDetails } from './connecting-ip-details';
import { ContentFacts } from './content-facts';
import { OneClickUnsubscribeDetails } from './one-click-unsubscribe-details';
import { SpamAssassinDetails } from './spamassassin-details';

/**
 * The analysis of the received message: score and verdict, deductions with fixes, findings by
 * category, authentication, the connecting IP, content facts, the one-click unsubscribe test when the message had one,
 * and SpamAssassin when it ran.
 * `waiting`: the message is expected (the test is running), so a missing report is asked for again.
 */
export default function MessageAnalysis({ testId, waiting = false }: { testId: number; waiting?: boolean }) {
  const report = useInboxTestReport(testId, { waiting });

  return (
    <section aria-label="Message analysis" className="space-y-3" data-testid={`inbox-test-analysis-${testId}`}>
      <h4 className="font-semibold">Message analysis</h4>
      <QueryState
        query={report}
        loading={<Spinner className="size-5" label="Loading the message analysis" />}
        errorMessage="Could not load the message analysis."
      >
        {(data) =>
          data === null ? (
            <p className="text-sm text-muted-foreground">
              The message analysis appears here once your email has arrived.
            </p>
          ) : (
            <div className="space-y-4">
              <AnalysisSummary report={data} testId={testId} />
              <AnalysisFindings findings={data.findings} />
              <div className="grid gap-3 lg:grid-cols-2">
                {data.authentication && <AuthenticationDetails authentication={data.authentication} />}
                {data.connectingIp && <ConnectingIpDetails connectingIp={data.connectingIp} envelope={data.envelope} />}
                <ContentFacts content={data.content} />
                {data.oneClickUnsubscribe && <OneClickUnsubscribeDetails result={data.oneClickUnsubscribe} />}
                {data.spamAssassin && <SpamAssassinDetails spamAssassin={data.spamAssassin} />}
              </div>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
