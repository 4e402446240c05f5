import { Link } from 'react-router';
import {
  CHECK_ANSWER,
  MTA_BENEFITS,
  MTA_GUIDES,
  MTA_TROUBLESHOOTING,
  mtaEndpointUrl,
  WEBHOOK_TOKEN_PLACEHOLDER,
  type MtaGuide,
} from '@content/docs/mta-integration';
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
  { id: 'overview', label: 'Overview' },
  { id: 'authentication', label: 'Authentication' },
  ...MTA_GUIDES.map((guide) => ({ id: guide.id, label: guide.name })),
  { id: 'troubleshooting', label: 'Troubleshooting' },
];

/** A sample body as the reader should see it: JSON indented, the rest as sent. */
function shown(body: string, contentType: string): string {
  if (contentType !== 'application/json') return body;
  return JSON.stringify(JSON.parse(body), null, 2);
}

function MtaSection({ guide, baseUrl }: { guide: MtaGuide; baseUrl: string }) {
  const ctx = { baseUrl };
  return (
    <DocsSection id={guide.id} title={guide.name}>
      <p>{guide.summary}</p>
      <dl
        className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)]"
        data-testid={`mta-facts-${guide.id}`}
      >
        <dt className="font-medium">Endpoint</dt>
        <dd className="min-w-0">
          <code className="font-mono break-all" data-testid="mta-endpoint">
            POST {mtaEndpointUrl(guide, ctx)}
          </code>
        </dd>
        <dt className="font-medium">Authentication</dt>
        <dd>{guide.authentication}</dd>
        <dt className="font-medium">Sent through</dt>
        <dd>{guide.mechanism}</dd>
      </dl>
      <ol className="list-decimal space-y-1 pl-6">
        {guide.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {guide.id === 'postfix' && (
        <p className="text-sm">
          The{' '}
          <Link className={TEXT_LINK} to={PATHS.postfixIntegration}>
            Postfix integration guide
          </Link>{' '}
          has these steps in detail, the Postfix endpoints and troubleshooting.
        </p>
      )}
      {guide.config(ctx).map((sample) => (
        <CodeBlock key={sample.label} label={sample.label} language={sample.language} code={sample.code} />
      ))}
      <p className="text-sm">
        Check the endpoint and your token: InboxPulse reads the record and stores nothing, answering{' '}
        <Code>{JSON.stringify(CHECK_ANSWER)}</Code>.
      </p>
      <CodeBlock label={`Check the ${guide.name} endpoint`} language="shell" code={guide.check(ctx).code} />
      <CodeBlock
        label={`What ${guide.name} posts: a delivery, a bounce and a deferral (${guide.sample.contentType})`}
        language={guide.sample.contentType.includes('json') ? 'json' : 'text'}
        code={shown(guide.sample.body, guide.sample.contentType)}
      />
    </DocsSection>
  );
}

/** Part 2, section 2: the MTA integration guide, with links to /, /integrations, /dashboard or /register and /login, and /api-docs. */
export default function MtaIntegrationPage() {
  const baseUrl = window.location.origin;
  return (
    <DocsLayout
      testId="mta-integration-page"
      title="MTA Integration Guide"
      toc={TOC}
      links={[
        { label: 'Integrations', to: PATHS.integrations },
        { label: 'API Docs', to: PATHS.apiDocs },
      ]}
      intro={
        <p>
          Connect Postfix, PowerMTA, GreenArrow, Halon, KumoMTA or Postal: each posts its delivery results to its own
          InboxPulse endpoint in its own format, as they happen. Every configuration below is your account’s, at{' '}
          <Code>{baseUrl}</Code>.
        </p>
      }
    >
      <DocsSection id="overview" title="Overview">
        <p>
          Every MTA reports each recipient’s outcome: delivered, bounced (hard or soft, with the enhanced status code),
          deferred, or a spam complaint. InboxPulse stores one event per message, recipient and outcome (a batch sent
          twice counts once), finds each recipient’s mailbox provider from its domain’s MX records and adds the events
          to your daily figures per mailbox provider and sending IP. Batches hold up to 1,000 rows; rows that cannot be
          read are named in the answer and the others are kept.
        </p>
        <div className="grid gap-4 md:grid-cols-3">
          {MTA_BENEFITS.map((benefit) => (
            <TextCard key={benefit.title} title={benefit.title}>
              {benefit.text}
            </TextCard>
          ))}
        </div>
      </DocsSection>

      <DocsSection id="authentication" title="Authentication">
        <p>
          Every endpoint takes your webhook token, made in{' '}
          <Link className={TEXT_LINK} to={PATHS.settings}>
            Settings
          </Link>
          , under Webhook Token (it is shown in full once; regenerating it stops the old one at once). Send it in one of
          three ways:
        </p>
        <ul className="list-disc space-y-1 pl-6 text-sm">
          <li>
            <Code>{`Authorization: Bearer ${WEBHOOK_TOKEN_PLACEHOLDER}`}</Code> (Postfix, PowerMTA, Halon and KumoMTA
            below);
          </li>
          <li>
            <Code>{`X-Webhook-Token: ${WEBHOOK_TOKEN_PLACEHOLDER}`}</Code>;
          </li>
          <li>
            <Code>{`?token=${WEBHOOK_TOKEN_PLACEHOLDER}`}</Code> in the URL, for MTAs whose webhook settings take a URL
            only (GreenArrow and Postal below).
          </li>
        </ul>
        <p className="text-sm">
          Replace <Code>{WEBHOOK_TOKEN_PLACEHOLDER}</Code> in the configurations with your token. Your scripts can also
          post events in InboxPulse’s own shape with an API key: see the{' '}
          <Link className={TEXT_LINK} to={`${PATHS.apiDocs}#email-metrics`}>
            API documentation
          </Link>
          .
        </p>
      </DocsSection>

      {MTA_GUIDES.map((guide) => (
        <MtaSection key={guide.id} guide={guide} baseUrl={baseUrl} />
      ))}

      <TroubleshootingSection items={MTA_TROUBLESHOOTING} />
    </DocsLayout>
  );
}
