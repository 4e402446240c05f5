import { Link } from 'react-router';
import {
  CHECK_ANSWER,
  mtaGuide,
  POSTFIX_LOG_FILE,
  POSTFIX_MAIN_CF,
  POSTFIX_SCRIPT_PATH,
  postfixMonitorScript,
  postfixSystemdUnit,
  WEBHOOK_TOKEN_PLACEHOLDER,
} from '@content/docs/mta-integration';
import {
  POSTFIX_ENDPOINTS,
  POSTFIX_FEATURES,
  POSTFIX_QUICK_START,
  POSTFIX_TROUBLESHOOTING,
  postfixAnalyticsCurl,
  postfixQueueCron,
} from '@content/docs/postfix';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { PATHS } from '../../lib/paths';
import { Code, CodeBlock } from './components/code-block';
import { TextCard } from './components/text-card';
import {
  DocsLayout,
  DocsSection,
  TEXT_LINK,
  TroubleshootingSection,
  type TocEntry,
} from '../../components/docs-layout';

const TOC: TocEntry[] = [
  { id: 'quick-start', label: 'Quick start' },
  { id: 'logging', label: 'Configure logging' },
  { id: 'monitor', label: 'Monitoring script' },
  { id: 'endpoints', label: 'Postfix endpoints' },
  { id: 'features', label: 'Features' },
  { id: 'troubleshooting', label: 'Troubleshooting' },
];

/** Part 2, section 2: the Postfix guide. Copy buttons show a check for 2 seconds; Back goes to the previous page. */
export default function PostfixIntegrationPage() {
  const ctx = { baseUrl: window.location.origin };
  const guide = mtaGuide('postfix');
  return (
    <DocsLayout
      testId="postfix-guide-page"
      title="Postfix Integration Guide"
      back
      toc={TOC}
      links={[
        { label: 'Integrations', to: PATHS.integrations },
        { label: 'MTA Guide', to: PATHS.mtaIntegration },
        { label: 'API Docs', to: PATHS.apiDocs },
      ]}
      intro={
        <p>
          Send every delivered, bounced and deferred result of your Postfix server to InboxPulse as it is logged. A
          small script on the mail server follows the Postfix log and posts the delivery lines to{' '}
          <Code>{`${ctx.baseUrl}${guide.path}`}</Code> with your webhook token. No message content leaves the server.
        </p>
      }
    >
      <DocsSection id="quick-start" title="Quick start">
        <ol className="grid gap-4 md:grid-cols-3" data-testid="quick-start-steps">
          {POSTFIX_QUICK_START.map((step, index) => (
            <li key={step.id}>
              <TextCard className="h-full" title={`${index + 1}. ${step.title}`}>
                {step.text}
              </TextCard>
            </li>
          ))}
        </ol>
        <p className="text-sm">
          You need your webhook token: generate it in{' '}
          <Link className={TEXT_LINK} to={PATHS.settings}>
            Settings
          </Link>
          , under Webhook Token, and put it in place of <Code>{WEBHOOK_TOKEN_PLACEHOLDER}</Code>.
        </p>
      </DocsSection>

      <DocsSection id="logging" title="1. Configure logging">
        <p>
          Add these settings to <Code>/etc/postfix/main.cf</Code>, then run <Code>postfix reload</Code>. Postfix (3.4
          and later) writes one line per delivery attempt to <Code>{POSTFIX_LOG_FILE}</Code>; long queue ids are never
          reused, so each message is counted once.
        </p>
        <CodeBlock label="main.cf" language="conf" code={POSTFIX_MAIN_CF} confirm="check" />
      </DocsSection>

      <DocsSection id="monitor" title="2. Install the monitor and 3. start monitoring">
        <p>
          The script follows the log (<Code>tail -F</Code>, so log rotation is fine) and keeps only the delivery results
          of <Code>postfix/smtp</Code> and <Code>postfix/lmtp</Code> (sent, bounced, deferred) and each message’s sender
          line. It posts them as text in batches of up to 500 lines, or after 5 quiet seconds, and keeps what InboxPulse
          refuses in a file. Save it as <Code>{POSTFIX_SCRIPT_PATH}</Code> and run{' '}
          <Code>{`chmod 755 ${POSTFIX_SCRIPT_PATH}`}</Code>.
        </p>
        <CodeBlock
          label="inboxpulse-postfix-monitor"
          language="shell"
          code={postfixMonitorScript(ctx)}
          confirm="check"
        />
        <p>
          Run it as a service, with your webhook token in its environment, then start it with{' '}
          <Code>systemctl daemon-reload</Code> and <Code>systemctl enable --now inboxpulse-postfix-monitor</Code>.
        </p>
        <CodeBlock
          label="inboxpulse-postfix-monitor.service"
          language="ini"
          code={postfixSystemdUnit(ctx)}
          confirm="check"
        />
        <p>
          Check the endpoint and your token from the mail server: InboxPulse reads the line and stores nothing,
          answering <Code>{JSON.stringify(CHECK_ANSWER)}</Code> (a wrong token answers 401 and says why).
        </p>
        <CodeBlock label="Check the endpoint" language="shell" code={guide.check(ctx).code} confirm="check" />
      </DocsSection>

      <DocsSection id="endpoints" title="Postfix endpoints">
        <p>
          The script uses the first. The others take an API key (Settings, API Keys; Professional plan) for your own
          scripts; see the{' '}
          <Link className={TEXT_LINK} to={PATHS.apiDocs}>
            API documentation
          </Link>
          .
        </p>
        <ul className="space-y-3" data-testid="postfix-endpoints">
          {POSTFIX_ENDPOINTS.map((endpoint) => (
            <li key={endpoint.path} className="rounded-lg border p-3 text-sm" data-testid="postfix-endpoint">
              <p className="flex flex-wrap items-center gap-2 font-mono">
                <Badge variant="outline">{endpoint.method}</Badge>
                <span className="break-all">{endpoint.path}</span>
                <Badge variant="secondary" className="font-sans">
                  {endpoint.auth}
                </Badge>
              </p>
              <p className="mt-1 text-muted-foreground">{endpoint.text}</p>
            </li>
          ))}
        </ul>
        <p>Optional: post the queue every 5 minutes, so long deferrals show even when nothing new is logged:</p>
        <CodeBlock
          label="/etc/cron.d/inboxpulse-postfix-queue"
          language="text"
          code={postfixQueueCron(ctx)}
          confirm="check"
        />
        <p>Read your Postfix figures of the last 7 days:</p>
        <CodeBlock label="Postfix analytics" language="shell" code={postfixAnalyticsCurl(ctx)} confirm="check" />
      </DocsSection>

      <DocsSection id="features" title="Features">
        <div className="grid gap-4 md:grid-cols-3">
          {POSTFIX_FEATURES.map((group) => (
            <Card key={group.title} data-testid="feature-group">
              <CardHeader className="pb-2">
                <CardTitle as="h3" className="text-lg">
                  {group.title}
                </CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  {group.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ))}
        </div>
      </DocsSection>

      <TroubleshootingSection items={POSTFIX_TROUBLESHOOTING} />
    </DocsLayout>
  );
}
