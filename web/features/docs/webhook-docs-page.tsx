import { Link } from 'react-router';
import {
  ENVELOPE_EXAMPLE,
  EVENT_DATA_EXAMPLES,
  receiverExample,
  REGISTRATION_EXAMPLE,
  SIGN_WITH_OPENSSL,
  SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_HEADERS,
  WEBHOOK_PAUSE,
  WEBHOOK_RETRY_WAITS_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
} from '@content/docs/webhooks';
// The repository's webhook guide: its receiver blocks are the code the tests run against real deliveries.
import webhookGuide from '../../../docs/webhooks.md?raw';
import { Badge } from '../../components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { PATHS } from '../../lib/paths';
import { Code, CodeBlock } from './components/code-block';
import { DocsLayout, DocsSection, TEXT_LINK, type TocEntry } from '../../components/docs-layout';

/** Part 2, section 2: the page's anchors. */
export const WEBHOOK_DOCS_ANCHORS: TocEntry[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'setup', label: 'Setup' },
  { id: 'events', label: 'Events' },
  { id: 'security', label: 'Security' },
  { id: 'examples', label: 'Examples' },
  { id: 'testing', label: 'Testing' },
];

const NODE_RECEIVER = receiverExample(webhookGuide, 'js');
const PYTHON_RECEIVER = receiverExample(webhookGuide, 'python');

function wait(seconds: number): string {
  return seconds < 60 ? `${seconds} seconds` : `${seconds / 60} minutes`;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export default function WebhookDocsPage() {
  const baseUrl = window.location.origin;
  const waits = WEBHOOK_RETRY_WAITS_SECONDS.map(wait);
  return (
    <DocsLayout
      testId="webhook-docs-page"
      title="Webhook Documentation"
      toc={WEBHOOK_DOCS_ANCHORS}
      links={[{ label: 'API Docs', to: PATHS.apiDocs }]}
      intro={
        <p>
          InboxPulse sends an HTTPS <Code>POST</Code> to the URLs you register whenever an event you subscribed to
          happens: a bounce, a spam report, a reputation change, a failed DNS validation, an alert raised or resolved.
          This guide is for whoever writes the receiving endpoint.
        </p>
      }
    >
      <DocsSection id="overview" title="Overview">
        <ul className="list-disc space-y-1 pl-6">
          <li>
            Each event is one JSON envelope, signed with your endpoint’s own secret so you can tell it came from
            InboxPulse.
          </li>
          <li>
            Answer with a <Code>2xx</Code> status within {WEBHOOK_TIMEOUT_SECONDS} seconds; anything else is retried,{' '}
            {WEBHOOK_ATTEMPTS} attempts in all.
          </li>
          <li>
            An event’s <Code>id</Code> is the same on every retry and redelivery: store the ids you handled and ignore
            one you have seen.
          </li>
        </ul>
      </DocsSection>

      <DocsSection id="setup" title="Setup">
        <p>
          Register an endpoint with <Code>POST /api/webhooks</Code> (see{' '}
          <Link className={TEXT_LINK} to={`${PATHS.apiDocs}#webhooks`}>
            the API documentation
          </Link>
          ), or save a webhook URL in Alert Settings to receive <Code>alert.created</Code> and{' '}
          <Code>alert.resolved</Code>.
        </p>
        <CodeBlock
          label="Register a webhook"
          language="shell"
          code={`curl -X POST "${baseUrl}/api/webhooks" \\\n  -H "Authorization: Bearer ipk_your_api_key" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(REGISTRATION_EXAMPLE)}'`}
        />
        <ul className="list-disc space-y-1 pl-6 text-sm">
          <li>
            The URL must use HTTPS (plain <Code>http://</Code> is refused), be at most 2,000 characters, and its host
            must resolve to public addresses only: private, loopback, link-local (including cloud metadata at
            169.254.169.254) and other reserved addresses are refused when you register and again before every delivery.
          </li>
          <li>An account has at most 20 endpoints.</li>
          <li>
            The answer carries the endpoint’s <strong>signing secret</strong> (<Code>whsec_…</Code>). It is shown this
            once; the list shows only its first characters. Keep it where your receiver can read it.
          </li>
        </ul>
      </DocsSection>

      <DocsSection id="events" title="Events">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Type</TableHead>
              <TableHead>Sent when</TableHead>
              <TableHead>Sent today</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {WEBHOOK_EVENT_DOCS.map((event) => (
              <TableRow key={event.type} data-testid="event-row" data-event={event.type}>
                <TableCell>
                  <Code>{event.type}</Code>
                </TableCell>
                <TableCell className="whitespace-normal">{event.sentWhen}</TableCell>
                <TableCell>
                  {event.sentToday ? <Badge variant="outline">Sent</Badge> : <Badge variant="secondary">Not yet</Badge>}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <p className="text-sm text-muted-foreground">
          The <Code>email.*</Code> events have their envelope and signing in place and are sent once MTA and ESP event
          ingestion lands; subscribing to them now is allowed and takes effect then.
        </p>
        <p>
          Every request body is one event envelope; <Code>created</Code> is in seconds since the epoch:
        </p>
        <CodeBlock label="Event envelope" language="json" code={json(ENVELOPE_EXAMPLE)} />
        {EVENT_DATA_EXAMPLES.map((example) => (
          <CodeBlock key={example.type} label={`data of ${example.type}`} language="json" code={json(example.data)} />
        ))}
        <p className="text-sm">
          <Code>alert.resolved</Code> carries the same fields as <Code>alert.created</Code> with{' '}
          <Code>resolved_at</Code> in place of <Code>escalated</Code> and <Code>occurred_at</Code>.
        </p>
        <h3 className="text-lg font-semibold">Headers</h3>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Header</TableHead>
              <TableHead>Value</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {WEBHOOK_HEADERS.map((header) => (
              <TableRow key={header.name}>
                <TableCell>
                  <Code>{header.name}</Code>
                </TableCell>
                <TableCell className="whitespace-normal">{header.value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DocsSection>

      <DocsSection id="security" title="Security">
        <p>
          <Code>InboxPulse-Signature</Code> reads{' '}
          <Code>t=1764151200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd</Code>:
        </p>
        <ul className="list-disc space-y-1 pl-6">
          <li>
            <Code>t</Code> is when this attempt was signed (seconds since the epoch);
          </li>
          <li>
            <Code>v1</Code> is the hex HMAC-SHA256, keyed with your endpoint’s signing secret (the whole{' '}
            <Code>whsec_…</Code> string), of the timestamp, a dot, and the <strong>raw request body</strong>:{' '}
            <Code>HMAC_SHA256(secret, t + &quot;.&quot; + body)</Code>.
          </li>
        </ul>
        <p>To verify a request:</p>
        <ol className="list-decimal space-y-1 pl-6" data-testid="verify-steps">
          <li>Read the raw body as bytes, before any JSON parsing: parsing and re-serialising changes it.</li>
          <li>
            Take <Code>t</Code> and every <Code>v1</Code> from the header (there may be more than one <Code>v1</Code>{' '}
            one day).
          </li>
          <li>
            Compute the HMAC of <Code>t + &quot;.&quot; + body</Code> and compare it with each <Code>v1</Code> in
            constant time, never with <Code>===</Code>.
          </li>
          <li>
            Refuse a <Code>t</Code> more than <strong>{SIGNATURE_TOLERANCE_SECONDS / 60} minutes</strong> away from your
            clock: a captured request replayed later fails here, because <Code>t</Code> is signed with the body.
          </li>
          <li>
            Answer <Code>401</Code> when the signature does not verify, and do nothing with the event.
          </li>
        </ol>
        <h3 className="text-lg font-semibold">Answering, timeouts and retries</h3>
        <ul className="list-disc space-y-1 pl-6" data-testid="retry-rules">
          <li>
            Answer with a <Code>2xx</Code> status within <strong>{WEBHOOK_TIMEOUT_SECONDS} seconds</strong>; do the work
            after answering (queue it). Anything else counts as a failed attempt: another status, no answer in time, a
            refused or reset connection, a host that now resolves to a private address.
          </li>
          <li>
            Redirects are not followed: a <Code>3xx</Code> is a failed attempt. Register the final URL.
          </li>
          <li>Your answer’s body is read (up to 64 KB) and discarded.</li>
          <li>
            A failed delivery is tried <strong>{WEBHOOK_ATTEMPTS} times in all</strong>, waiting{' '}
            {waits.slice(0, -1).join(', ')} and {waits.at(-1)} between attempts. The deliveries log shows it as retrying
            with its attempts (for example attempt 3 of 5), then delivered or, after the fifth failure, failed. A failed
            delivery can be sent again with redeliver.
          </li>
          <li>
            An endpoint that fails <strong>{WEBHOOK_PAUSE.failuresInARow} attempts in a row</strong> is paused for{' '}
            {WEBHOOK_PAUSE.firstPauseMinutes} minutes and its owner gets one e-mail. Its deliveries wait meanwhile and
            use none of their attempts. Then one delivery tries the endpoint: delivered, the others follow; failed, the
            pause starts again, twice as long each time, at most {WEBHOOK_PAUSE.longestPauseMinutes} minutes. A test
            event tries a paused endpoint at once.
          </li>
        </ul>
      </DocsSection>

      <DocsSection id="examples" title="Examples">
        <p>
          Both receivers verify the signature as above, answer <Code>401</Code> to a bad one and <Code>200</Code> before
          doing the work. Set <Code>INBOXPULSE_WEBHOOK_SECRET</Code> to your endpoint’s signing secret. Put them behind
          your HTTPS server or proxy.
        </p>
        <h3 className="text-lg font-semibold">Node.js (18 or later, no dependencies)</h3>
        <CodeBlock label="receiver.mjs" language="js" code={NODE_RECEIVER} />
        <h3 className="text-lg font-semibold">Python (3.8 or later, standard library only)</h3>
        <CodeBlock label="receiver.py" language="python" code={PYTHON_RECEIVER} />
      </DocsSection>

      <DocsSection id="testing" title="Testing">
        <ul className="list-disc space-y-1 pl-6">
          <li>
            <Code>{'POST /api/webhooks/{id}/test'}</Code> sends a <Code>webhook.test</Code> event to the endpoint now.
          </li>
          <li>
            <Code>{'GET /api/webhooks/{id}/deliveries'}</Code> shows the latest 50 deliveries with every attempt (time,
            status code, error, duration).
          </li>
          <li>
            <Code>{'POST /api/webhooks/deliveries/{id}/redeliver'}</Code> sends a delivery’s event again.
          </li>
        </ul>
        <p>To try a receiver on your own machine, sign a body yourself with the same scheme:</p>
        <CodeBlock label="Sign a test event with openssl" language="shell" code={SIGN_WITH_OPENSSL} />
        <p className="text-sm text-muted-foreground">
          Troubleshooting: a timeout means the receiver answered after {WEBHOOK_TIMEOUT_SECONDS} seconds (answer first,
          then work); a signature that never verifies is usually a body parsed before it was checked, or the secret of
          another endpoint; an <Code>http://</Code> URL is refused: HTTPS is required.
        </p>
      </DocsSection>
    </DocsLayout>
  );
}
