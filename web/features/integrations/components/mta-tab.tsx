import { useEffect, useRef } from 'react';
import { Activity, ArrowRight, BellRing, KeyRound, ShieldCheck } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  MTA_BENEFITS,
  MTA_GUIDES,
  MTA_IDS,
  mtaEndpointUrl,
  type MtaGuide,
  type MtaId,
} from '@content/docs/mta-integration';
import type { StoredDeliveryEvent } from '@contracts/delivery-events';
import { CopyButton } from '../../../components/copy-button';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDateTime, relativeAge } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { cn } from '../../../lib/utils';
import { useLatestMtaEvents, useWebhookTokenStatus } from '../api';
import { MtaRefusalLine, useEmailRefusal } from './email-quota-notice';
import { FeedbackLoopsCard } from './feedback-loops-card';

const LINK = 'font-medium text-primary underline underline-offset-4 hover:no-underline';
const BENEFIT_ICONS = [Activity, BellRing, ShieldCheck] as const;

/** Where each MTA's full setup lives: Postfix has its own guide, the others a section of the MTA guide. */
export function mtaGuidePath(id: MtaId): string {
  return id === 'postfix' ? PATHS.postfixIntegration : `${PATHS.mtaIntegration}#${id}`;
}

function TokenCard() {
  const status = useWebhookTokenStatus(true);
  return (
    <Card data-testid="mta-token">
      <CardHeader className="pb-3">
        <CardTitle as="h3" className="flex items-center gap-2 text-lg">
          <KeyRound className="size-5" aria-hidden="true" />
          Your webhook token
        </CardTitle>
        <CardDescription>
          Every MTA authenticates with your webhook token: as an Authorization: Bearer header, or as ?token= in the URL
          for those that only take a URL.
        </CardDescription>
      </CardHeader>
      <CardContent className="text-sm">
        <QueryState
          query={status}
          loading={<Skeleton className="h-5 w-64" />}
          errorMessage={(error) => serverMessageOr(error, 'Unable to load your webhook token.')}
        >
          {(token) =>
            token.hasToken ? (
              <p>
                Your token is <code className="font-mono">{token.tokenPreview}</code>, created{' '}
                {formatDateTime(token.createdAt)}. It is shown in full only when it is generated: regenerate it in{' '}
                <Link className={LINK} to={PATHS.settings}>
                  Settings
                </Link>{' '}
                if you no longer have it (the old one then stops working). Replace{' '}
                <code className="font-mono">iwt_your_webhook_token</code> below with it.
              </p>
            ) : (
              <p data-testid="mta-token-missing">
                You have no webhook token yet. Generate one in{' '}
                <Link className={LINK} to={PATHS.settings}>
                  Settings
                </Link>
                , under Webhook Token, and use it in place of <code className="font-mono">iwt_your_webhook_token</code>{' '}
                below.
              </p>
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}

function LastEvent({ query }: { query: UseQueryResult<StoredDeliveryEvent | null> }) {
  return (
    <QueryState
      query={query}
      loading={<Skeleton className="h-4 w-40" />}
      // One muted line among the card's steps: a retry button here would outweigh the endpoint.
      failed={() => <span className="text-muted-foreground">Last event: could not be loaded</span>}
      isEmpty={(event) => event === null}
      empty={<span className="text-muted-foreground">No events received yet</span>}
    >
      {(event) =>
        event && (
          <span>
            Last event {relativeAge(event.receivedAt).toLowerCase()}: {event.eventType} to {event.recipientDomain}
          </span>
        )
      }
    </QueryState>
  );
}

function MtaCard({
  guide,
  baseUrl,
  latest,
  highlighted,
}: {
  guide: MtaGuide;
  baseUrl: string;
  latest: Parameters<typeof LastEvent>[0]['query'];
  highlighted: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!highlighted) return;
    ref.current?.scrollIntoView?.({ block: 'center' });
    ref.current?.focus();
  }, [highlighted]);
  const url = mtaEndpointUrl(guide, { baseUrl });
  const refusal = useEmailRefusal(guide.id);
  return (
    <Card
      ref={ref}
      tabIndex={-1}
      data-testid={`mta-card-${guide.id}`}
      aria-labelledby={`mta-${guide.id}-title`}
      className={cn('flex min-w-0 flex-col focus:outline-none', highlighted && 'ring-2 ring-primary')}
    >
      <CardHeader className="space-y-1 pb-3">
        <CardTitle as="h3" id={`mta-${guide.id}-title`} className="text-lg">
          {guide.name}
        </CardTitle>
        <CardDescription>Posts its events through {guide.mechanism}.</CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-3 text-sm">
        <div>
          <p className="mb-1 text-xs font-medium uppercase tracking-wide text-muted-foreground">Endpoint</p>
          <div className="flex min-w-0 items-start gap-1">
            <code
              className="min-w-0 flex-1 rounded bg-muted px-2 py-1.5 font-mono text-xs break-all"
              data-testid="mta-endpoint"
            >
              {url}
            </code>
            <CopyButton value={url} label={`Copy the ${guide.name} endpoint`} />
          </div>
        </div>
        <p className="text-muted-foreground">{guide.authentication}</p>
        <ol className="list-decimal space-y-1 pl-5">
          {guide.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        {/* A div: the loading skeleton is a div, which a <p> may not hold. */}
        <div className="text-xs" data-testid="mta-last-event">
          <LastEvent query={latest} />
        </div>
        {refusal && <MtaRefusalLine refusal={refusal} />}
      </CardContent>
      <div className="px-6 pb-6">
        <Link className={cn(LINK, 'inline-flex items-center gap-1 text-sm')} to={mtaGuidePath(guide.id)}>
          {guide.id === 'postfix' ? 'Postfix integration guide' : `${guide.name} setup guide`}
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      </div>
    </Card>
  );
}

/**
 * Mail Transfer Agents (part 2, section 2): Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal
 * with the user's own endpoint URLs (this app's address), where the token comes from, whether events
 * are arriving, and the benefits card.
 */
export function MtaTab({ highlighted }: { highlighted: MtaId | null }) {
  const baseUrl = window.location.origin;
  const latest = useLatestMtaEvents(MTA_IDS, true);
  return (
    <div className="space-y-4" data-testid="mta-tab">
      <p className="text-sm text-muted-foreground">
        Your mail servers post their delivery results to InboxPulse as they happen. The{' '}
        <Link className={LINK} to={PATHS.mtaIntegration}>
          MTA integration guide
        </Link>{' '}
        has the full configuration of each, with a command that checks the endpoint and the token.
      </p>
      <TokenCard />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {MTA_GUIDES.map((guide, index) => (
          <MtaCard
            key={guide.id}
            guide={guide}
            baseUrl={baseUrl}
            latest={latest[index]!}
            highlighted={highlighted === guide.id}
          />
        ))}
      </div>
      <FeedbackLoopsCard />
      <Card data-testid="mta-benefits">
        <CardHeader className="pb-3">
          <CardTitle as="h3" className="text-lg">
            What InboxPulse does with your MTA events
          </CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 md:grid-cols-3">
            {MTA_BENEFITS.map((benefit, index) => {
              const Icon = BENEFIT_ICONS[index]!;
              return (
                <li key={benefit.title} className="space-y-1">
                  <p className="flex items-center gap-2 font-medium">
                    <Icon className="size-4 text-primary" aria-hidden="true" />
                    {benefit.title}
                  </p>
                  <p className="text-sm text-muted-foreground">{benefit.text}</p>
                </li>
              );
            })}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
