import { Link } from 'react-router';
import { COMPANY } from '@content/company';
import {
  API_SECTIONS,
  answerExample,
  curlExample,
  EXAMPLE_API_KEY,
  OPENAPI_PATH,
  RATE_LIMIT_HEADERS,
  RATE_LIMITS,
  UNAUTHORIZED_EXAMPLE,
  type ApiEndpoint,
} from '@content/docs/api-reference';
import { Badge } from '../../components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table';
import { PATHS } from '../../lib/paths';
import { Code, CodeBlock } from './components/code-block';
import { DocsLayout, DocsSection, TEXT_LINK, type TocEntry } from '../../components/docs-layout';
import { OpenApiReference } from './components/openapi-reference';
import { NODE_CLIENT_EXAMPLE, PYTHON_CLIENT_EXAMPLE, SUPPORT_BY_PLAN } from './content/api-docs-text';

const TOC: TocEntry[] = [
  { id: 'authentication', label: 'Authentication' },
  ...API_SECTIONS.map((section) => ({ id: section.id, label: section.title })),
  { id: 'rate-limits', label: 'Rate limits' },
  { id: 'sdks', label: 'SDKs' },
  { id: 'reference', label: 'API reference' },
  { id: 'support', label: 'Support' },
];

const METHOD_TONE: Record<ApiEndpoint['method'], string> = {
  GET: 'bg-emerald-100 text-emerald-800',
  POST: 'bg-blue-100 text-blue-800',
  PUT: 'bg-amber-100 text-amber-800',
  PATCH: 'bg-amber-100 text-amber-800',
  DELETE: 'bg-red-100 text-red-800',
};

function EndpointCard({ endpoint, baseUrl }: { endpoint: ApiEndpoint; baseUrl: string }) {
  return (
    <article
      id={endpoint.id}
      className="scroll-mt-24 space-y-3 rounded-lg border p-4"
      data-testid="endpoint"
      data-endpoint-id={endpoint.id}
    >
      <h3 className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        <Badge className={`${METHOD_TONE[endpoint.method]} font-mono`} variant="outline">
          {endpoint.method}
        </Badge>
        {/* A long path wraps anywhere rather than widening the page on a phone. */}
        <code className="min-w-0 font-mono text-base break-all">{endpoint.path}</code>
        <span className="text-base font-normal text-muted-foreground">{endpoint.title}</span>
      </h3>
      <p className="text-sm">{endpoint.description}</p>
      {endpoint.creates && (
        <p className="text-sm text-muted-foreground">
          Accepts an <Code>Idempotency-Key</Code> header.
        </p>
      )}
      <div className="grid gap-3 xl:grid-cols-2">
        <CodeBlock label="Request" language="shell" code={curlExample(endpoint, baseUrl)} />
        <CodeBlock label={`Answer ${endpoint.status}`} language="json" code={answerExample(endpoint)} />
      </div>
    </article>
  );
}

/** Part 2, section 2: API documentation, with the shared documentation header. */
export default function ApiDocsPage() {
  const baseUrl = window.location.origin;
  return (
    <DocsLayout
      testId="api-docs-page"
      title="API Documentation"
      toc={TOC}
      links={[{ label: 'Webhooks', to: PATHS.webhookDocs }]}
      intro={
        <>
          <p>
            The InboxPulse REST API gives your code what the app shows: domains and their DNS checks, email metrics,
            inbox tests, IP blacklist monitoring, DMARC reports, alerts and webhooks. Requests and answers are JSON over
            HTTPS at <Code>{`${baseUrl}/api`}</Code>.
          </p>
          <p className="mt-2">
            Every route, with its parameters and schemas, is also described by the OpenAPI document at{' '}
            <a className={TEXT_LINK} href={OPENAPI_PATH}>
              {OPENAPI_PATH}
            </a>
            .
          </p>
        </>
      }
    >
      <DocsSection id="authentication" title="Authentication">
        <p>
          Create an API key in{' '}
          <Link className={TEXT_LINK} to={PATHS.settings}>
            Settings
          </Link>
          , under API Keys, and send it with every request as a bearer token. Keys start with <Code>ipk_</Code>; the
          full key is shown once, when you generate it. Regenerating replaces the key at once and revoking removes it.
        </p>
        <p>
          API access needs the Professional plan. Errors answer with a JSON body holding a code and a message, for
          example:
        </p>
        <CodeBlock label="Authentication header" language="http" code={`Authorization: Bearer ${EXAMPLE_API_KEY}`} />
        <CodeBlock
          label="An error answer"
          language="json"
          code={`HTTP/1.1 ${UNAUTHORIZED_EXAMPLE.status} Unauthorized\n\n${JSON.stringify(UNAUTHORIZED_EXAMPLE.body, null, 2)}`}
        />
        <p className="text-sm text-muted-foreground">
          POST requests that create something accept an <Code>Idempotency-Key</Code> header (a UUID of yours): sending
          the same request again with the same key within 24 hours answers with the first answer (marked{' '}
          <Code>Idempotent-Replayed: true</Code>) instead of creating a second one, so a retry after a network error is
          safe. The same key with a different request answers <Code>422</Code>.
        </p>
      </DocsSection>

      {API_SECTIONS.map((section) => (
        <DocsSection key={section.id} id={section.id} title={section.title}>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.id === 'webhooks' && (
            <p>
              See the{' '}
              <Link className={TEXT_LINK} to={PATHS.webhookDocs}>
                Webhook Documentation
              </Link>{' '}
              for the events, headers, signature and retries.
            </p>
          )}
          <div className="space-y-6">
            {section.endpoints.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} baseUrl={baseUrl} />
            ))}
          </div>
        </DocsSection>
      ))}

      <DocsSection id="rate-limits" title="Rate limits">
        <p>
          Each account’s API key may make a number of requests in each clock hour, by plan. The Free plan has no API
          access: its requests are refused with <Code>403</Code> “Requires Professional plan”.
        </p>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Plan</TableHead>
              <TableHead>Requests per hour</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {RATE_LIMITS.map((limit) => (
              <TableRow key={limit.plan}>
                <TableCell>{limit.plan}</TableCell>
                <TableCell data-testid="rate-limit">{limit.perHour.toLocaleString('en-US')}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <p>Every answer carries the state of your window:</p>
        <ul className="list-disc space-y-1 pl-6 text-sm">
          {RATE_LIMIT_HEADERS.map((header) => (
            <li key={header.name}>
              <Code>{header.name}</Code>: {header.meaning}
            </li>
          ))}
        </ul>
        <p>
          Past the limit the API answers <Code>429</Code> with a <Code>Retry-After</Code> header: the seconds to wait
          before the next request.
        </p>
      </DocsSection>

      <DocsSection id="sdks" title="SDKs">
        <p>
          The API is plain HTTPS and JSON, so any HTTP client works; there is no package to install. These are complete
          examples in Node.js (18 or later, no dependencies) and Python 3 (standard library only):
        </p>
        <CodeBlock label="Node.js" language="js" code={NODE_CLIENT_EXAMPLE(baseUrl)} />
        <CodeBlock label="Python" language="python" code={PYTHON_CLIENT_EXAMPLE(baseUrl)} />
      </DocsSection>

      <DocsSection id="reference" title="API reference">
        <p>
          Every operation the server has, read from its OpenAPI 3.1 document (
          <a className={TEXT_LINK} href={OPENAPI_PATH}>
            {OPENAPI_PATH}
          </a>
          ): open one for its parameters, request body and answers. Fields marked * are required.
        </p>
        <OpenApiReference />
      </DocsSection>

      <DocsSection id="support" title="Support">
        <p>
          Write to{' '}
          <a className={TEXT_LINK} href={`mailto:${COMPANY.supportEmail}`}>
            {COMPANY.supportEmail}
          </a>{' '}
          with the request you sent, the answer you got and its <Code>X-Request-Id</Code> header.
        </p>
        <ul className="list-disc space-y-1 pl-6 text-sm" data-testid="support-by-plan">
          {SUPPORT_BY_PLAN.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </DocsSection>
    </DocsLayout>
  );
}
