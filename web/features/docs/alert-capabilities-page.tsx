import { Link } from 'react-router';
import {
  ALERT_CAPABILITIES_INTRO,
  ALERT_CHANNELS,
  ALERT_FREQUENCY_DOCS,
  ALERT_GROUP_LABELS,
  ALERT_PLAN_TIERS,
  ALERT_RULE_WINDOW_DOCS,
  ALERT_THRESHOLD_DOCS,
  ALERT_TYPE_DOCS,
  DOCUMENTED_THRESHOLDS,
} from './alert-capabilities-content';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { PATHS } from '../../lib/paths';
import { Code } from './components/code-block';
import { DocsLayout, DocsSection, TEXT_LINK, type TocEntry } from '../../components/docs-layout';

const TOC: TocEntry[] = [
  { id: 'categories', label: 'Alert categories' },
  { id: 'alert-types', label: 'Alert types' },
  { id: 'channels', label: 'Channels' },
  { id: 'frequency', label: 'Frequency' },
  { id: 'thresholds', label: 'Thresholds' },
  { id: 'api', label: 'API and webhooks' },
];

/** Part 2, section 2: Alert capabilities, with links to /, /integrations, /dashboard or /register and /login, /alerts and /api-docs. */
export default function AlertCapabilitiesPage() {
  return (
    <DocsLayout
      testId="alert-capabilities-page"
      title="Alert Capabilities"
      toc={TOC}
      links={[
        { label: 'Integrations', to: PATHS.integrations },
        { label: 'Alerts', to: PATHS.alerts },
        { label: 'API Docs', to: PATHS.apiDocs },
      ]}
      intro={<p>{ALERT_CAPABILITIES_INTRO}</p>}
    >
      <DocsSection id="categories" title="Alert categories">
        <div className="grid gap-4 md:grid-cols-3">
          {ALERT_PLAN_TIERS.map((tier) => (
            <Card key={tier.plan} data-testid="plan-tier">
              <CardHeader>
                <CardTitle as="h3">{tier.name}</CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  {tier.lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ))}
        </div>
        <h3 className="text-lg font-semibold">Documented thresholds</h3>
        <ul className="list-disc space-y-1 pl-6 text-sm" data-testid="documented-thresholds">
          {DOCUMENTED_THRESHOLDS.map((item) => (
            <li key={item.metric}>
              {item.metric}: {item.threshold}
            </li>
          ))}
        </ul>
      </DocsSection>

      <DocsSection id="alert-types" title="Alert types">
        <p>
          These are the {ALERT_TYPE_DOCS.length} alert types InboxPulse has, as the API and webhooks name them. Alerts
          are raised from your own data, kept as one alert per condition while it lasts (updated when its value or
          severity changes) and resolved when the data recovers. Rates are judged on 100 messages or more. No alert type
          depends on the plan.
        </p>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Type</TableHead>
              <TableHead>Group</TableHead>
              <TableHead>Raised when</TableHead>
              <TableHead>Today</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {ALERT_TYPE_DOCS.map((alert) => (
              <TableRow key={alert.type} data-testid="alert-type-row" data-type={alert.type}>
                <TableCell>
                  <span className="font-medium">{alert.label}</span>
                  <br />
                  <Code>{alert.type}</Code>
                </TableCell>
                <TableCell>{ALERT_GROUP_LABELS[alert.group]}</TableCell>
                <TableCell className="whitespace-normal">{alert.raisedWhen}</TableCell>
                <TableCell>
                  {alert.raisedToday ? (
                    <Badge variant="outline">Raised</Badge>
                  ) : (
                    <Badge variant="secondary">Not yet</Badge>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DocsSection>

      <DocsSection id="channels" title="Channels">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Channel</TableHead>
              <TableHead>How</TableHead>
              <TableHead>Plan</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {ALERT_CHANNELS.map((channel) => (
              <TableRow key={channel.channel} data-testid="channel-row">
                <TableCell className="font-medium">{channel.channel}</TableCell>
                <TableCell className="whitespace-normal">{channel.detail}</TableCell>
                <TableCell>{channel.plan}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <p className="text-sm text-muted-foreground">
          Choose the channels in{' '}
          <Link className={TEXT_LINK} to={PATHS.alerts}>
            Alerts
          </Link>
          , under Alert Settings. The plan and the channel are checked again when each message is sent.
        </p>
      </DocsSection>

      <DocsSection id="frequency" title="Frequency">
        <ul className="list-disc space-y-1 pl-6" data-testid="frequencies">
          {ALERT_FREQUENCY_DOCS.map((item) => (
            <li key={item.frequency}>
              <span className="font-medium">{item.label}</span>: {item.detail}.
            </li>
          ))}
        </ul>
        <p className="text-sm">
          Digests follow the time zone of your quiet hours, or UTC. During quiet hours only critical alerts (and
          escalations to critical) go out; webhooks go at once whatever the frequency.
        </p>
      </DocsSection>

      <DocsSection id="thresholds" title="Thresholds">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Setting</TableHead>
              <TableHead>Default</TableHead>
              <TableHead>Rule</TableHead>
              <TableHead>Range</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {ALERT_THRESHOLD_DOCS.map((item) => (
              <TableRow key={item.setting} data-testid="threshold-row" data-setting={item.setting}>
                <TableCell className="font-medium">{item.label}</TableCell>
                <TableCell>
                  {item.default}
                  {item.unit}
                </TableCell>
                <TableCell className="whitespace-normal">{item.rule}</TableCell>
                <TableCell>{item.range}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <p className="text-sm">
          Alert rules add thresholds of your own, each with a warning and a critical level, over a window of{' '}
          {ALERT_RULE_WINDOW_DOCS.join(', ')}, on inbox placement, delivery, bounce and complaint rates, sender score
          and volume changes.
        </p>
      </DocsSection>

      <DocsSection id="api" title="API and webhooks">
        <p>
          Read, acknowledge and mark alerts read, and create alert rules, through the{' '}
          <Link className={TEXT_LINK} to={`${PATHS.apiDocs}#alerts`}>
            REST API
          </Link>
          . Receive <Code>alert.created</Code> and <Code>alert.resolved</Code> as signed{' '}
          <Link className={TEXT_LINK} to={PATHS.webhookDocs}>
            webhooks
          </Link>
          .
        </p>
      </DocsSection>
    </DocsLayout>
  );
}
