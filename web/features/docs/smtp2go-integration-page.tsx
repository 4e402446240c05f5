import { useId, useState } from 'react';
import { BarChart3, ExternalLink, Send, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { COMPANY } from '@content/company';
import {
  EXAMPLE_LABELS,
  EXAMPLE_LANGUAGES,
  SMTP2GO_BENEFITS,
  SMTP2GO_DOCS_URL,
  SMTP2GO_FEATURES,
  SMTP2GO_OVERVIEW_TILES,
  SMTP2GO_SETUP,
  SMTP2GO_TROUBLESHOOTING,
  smtp2goApiExample,
  smtp2goWebhookUrl,
  type ExampleLanguage,
} from '@content/docs/smtp2go';
import { TabList } from '../../components/ui/tab-list';
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
  { id: 'benefits', label: 'Benefits' },
  { id: 'setup', label: 'Setup' },
  { id: 'api-examples', label: 'API examples' },
  { id: 'monitoring', label: 'Monitoring features' },
  { id: 'troubleshooting', label: 'Troubleshooting' },
  { id: 'support', label: 'Support' },
];

const TILE_ICONS = { relay: Send, analytics: BarChart3, reputation: ShieldCheck } as const;

/** The integrations page with the SMTP2GO dialog open: where the connection is tested. */
const TEST_LINK = `${PATHS.integrations}?manage=smtp2go`;

function ApiExamples() {
  const [language, setLanguage] = useState<ExampleLanguage>('shell');
  const baseId = useId();
  return (
    <div className="space-y-3">
      <TabList
        ids={EXAMPLE_LANGUAGES}
        labels={EXAMPLE_LABELS}
        selected={language}
        onSelect={setLanguage}
        label="Example language"
        tabIdOf={(id) => `${baseId}-tab-${id}`}
        panelIdOf={() => `${baseId}-panel`}
        className="inline-flex flex-wrap"
      />
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${language}`}>
        <CodeBlock label={EXAMPLE_LABELS[language]} language={language} code={smtp2goApiExample(language)} />
      </div>
    </div>
  );
}

/**
 * Part 2, section 2: the sending-provider integration page, with links to Home, Integrations,
 * Dashboard (signed in) or Start Monitoring and Login (signed out).
 */
export default function Smtp2goIntegrationPage() {
  const baseUrl = window.location.origin;
  return (
    <DocsLayout
      testId="smtp2go-page"
      title="SMTP2GO Integration"
      toc={TOC}
      links={[{ label: 'Integrations', to: PATHS.integrations }]}
      registerLabel="Start Monitoring"
      intro={
        <p>
          Connect your SMTP2GO account to follow its delivery, bounce and complaint figures beside everything else
          InboxPulse monitors: an API key for the daily statistics, and optionally a webhook for each message’s result
          as it happens.
        </p>
      }
    >
      <DocsSection id="overview" title="Overview">
        <div className="grid gap-4 md:grid-cols-3" data-testid="overview-tiles">
          {SMTP2GO_OVERVIEW_TILES.map((tile) => {
            const Icon = TILE_ICONS[tile.id];
            return (
              <TextCard
                key={tile.id}
                title={tile.title}
                icon={<Icon className="size-5 text-primary" aria-hidden="true" />}
              >
                {tile.text}
              </TextCard>
            );
          })}
        </div>
      </DocsSection>

      <DocsSection id="benefits" title="Benefits">
        <ul className="list-disc space-y-1 pl-6">
          {SMTP2GO_BENEFITS.map((benefit) => (
            <li key={benefit}>{benefit}</li>
          ))}
        </ul>
      </DocsSection>

      <DocsSection id="setup" title="Setup">
        <ol className="space-y-6" data-testid="setup-steps">
          {SMTP2GO_SETUP.map((step, index) => (
            <li key={step.id} className="space-y-2">
              <h3 className="text-lg font-semibold">
                Step {index + 1}: {step.title}
              </h3>
              {step.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              {step.id === 'install' && (
                <p>
                  <Link className={TEXT_LINK} to={TEST_LINK}>
                    Open the SMTP2GO plugin in Integrations
                  </Link>
                </p>
              )}
              {step.id === 'webhook' && (
                <CodeBlock label="Webhook URL" language="text" code={smtp2goWebhookUrl({ baseUrl })} />
              )}
            </li>
          ))}
        </ol>
        <p className="text-sm text-muted-foreground">
          Replace <Code>iwt_your_webhook_token</Code> with your webhook token from{' '}
          <Link className={TEXT_LINK} to={PATHS.settings}>
            Settings
          </Link>
          ; <Code>main</Code> is a label of your choice naming the SMTP2GO account.
        </p>
      </DocsSection>

      <DocsSection id="api-examples" title="API examples">
        <p>
          Check what your key can read, straight from SMTP2GO’s API: the email summary (Read Stats) and the latest 100
          activity events (Read Activity), the two permissions InboxPulse needs. Put the key in the{' '}
          <Code>SMTP2GO_API_KEY</Code> environment variable first.
        </p>
        <ApiExamples />
      </DocsSection>

      <DocsSection id="monitoring" title="Monitoring features">
        <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="monitoring-features">
          {SMTP2GO_FEATURES.map((feature) => (
            <TextCard key={feature.id} title={feature.title}>
              {feature.text}
            </TextCard>
          ))}
        </div>
      </DocsSection>

      <TroubleshootingSection items={SMTP2GO_TROUBLESHOOTING} />

      <DocsSection id="support" title="Support">
        <ul className="space-y-2" data-testid="support-links">
          <li>
            E-mail support:{' '}
            <a className={TEXT_LINK} href={`mailto:${COMPANY.supportEmail}`}>
              {COMPANY.supportEmail}
            </a>
          </li>
          <li>
            <Link className={TEXT_LINK} to={PATHS.apiDocs}>
              InboxPulse API documentation
            </Link>
          </li>
          <li>
            <a
              className={`${TEXT_LINK} inline-flex items-center gap-1`}
              href={SMTP2GO_DOCS_URL}
              target="_blank"
              rel="noopener noreferrer"
            >
              SMTP2GO API documentation
              <ExternalLink className="size-3.5" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </li>
          <li>
            <Link className={TEXT_LINK} to={TEST_LINK}>
              Test your SMTP2GO connection
            </Link>
          </li>
        </ul>
      </DocsSection>
    </DocsLayout>
  );
}
