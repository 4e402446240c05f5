import { useId, useState, type ReactNode } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChartLine, ChevronDown, ChevronUp, ListChecks, MoreVertical, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { domainCompliancePath } from '@contracts/compliance';
import type { Domain } from '@contracts/domains';
import { domainTimelinePath } from '@contracts/timeline';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { useVerifyDomainMutation } from '../api';
import { Pill } from '../../../components/ui/pill';
import { formatDate } from '../../../lib/format';
import { CHECK_STATUS } from '../status';
import { verifyFailedNotice, verifyNotice } from '../verify-result';
import { DnsSetupInstructions } from './dns-setup';
import { DomainDetails } from './domain-details';
import { DomainStatusBadge } from './domain-status-badge';

const MENU_ITEM =
  'flex cursor-pointer select-none items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4';

function DomainMenu({ domain, onEdit, onDelete }: { domain: Domain; onEdit: () => void; onDelete: () => void }) {
  return (
    // Not modal: the dialogs it opens manage focus and pointer blocking themselves.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Actions for ${domain.domain}`}
          data-domain-actions={domain.domain}
        >
          <MoreVertical aria-hidden="true" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          <DropdownMenu.Item className={MENU_ITEM} onSelect={onEdit}>
            <Pencil aria-hidden="true" />
            Edit Domain
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={MENU_ITEM}>
            <Link to={domainTimelinePath(domain.id)}>
              <ChartLine aria-hidden="true" />
              Timeline
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={MENU_ITEM}>
            <Link to={domainCompliancePath(domain.id)}>
              <ListChecks aria-hidden="true" />
              Compliance
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item className={`${MENU_ITEM} text-destructive`} onSelect={onDelete}>
            <Trash2 aria-hidden="true" />
            Delete Domain
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function RecordStatuses({ domain }: { domain: Domain }) {
  const rows: Array<[string, Domain['spfStatus']]> = [
    ['SPF', domain.spfStatus],
    ['DKIM', domain.dkimStatus],
    ['DMARC', domain.dmarcStatus],
  ];
  return (
    <ul aria-label="Authentication records" className="flex flex-wrap gap-2">
      {rows.map(([name, status]) => (
        <li key={name}>
          <Pill tone={status ? CHECK_STATUS[status].tone : 'none'}>
            {name}: {status ? CHECK_STATUS[status].label : 'Not checked'}
          </Pill>
        </li>
      ))}
    </ul>
  );
}

export function DomainCard({
  domain,
  onEdit,
  onDelete,
  footer,
}: {
  domain: Domain;
  onEdit: () => void;
  onDelete: () => void;
  /** Shown last in the card; the app puts the domain's DMARC reports here (app/domain-management-page.tsx). */
  footer?: ReactNode;
}) {
  const [expanded, setExpanded] = useState(false);
  const verify = useVerifyDomainMutation();
  const detailsId = useId();

  function runVerify() {
    verify.mutate(domain.id, {
      onSuccess: (detail) => {
        toast(verifyNotice(detail));
        // The toast names the problems; the details under it say how to fix each one.
        if (detail.status !== 'healthy') setExpanded(true);
      },
      onError: (error) => toast(verifyFailedNotice(error)),
    });
  }

  return (
    <Card data-testid="domain-card" data-domain={domain.domain} aria-busy={verify.isPending}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="min-w-0 space-y-1">
          <CardTitle as="h2" className="break-all text-lg">
            {domain.domain}
          </CardTitle>
          <p className="text-sm text-muted-foreground">Added on {formatDate(domain.createdAt)}</p>
        </div>
        <div className="flex items-center gap-2">
          <DomainStatusBadge status={domain.status} />
          <Button variant="outline" size="sm" onClick={runVerify} disabled={verify.isPending}>
            <RefreshCw className={verify.isPending ? 'animate-spin' : undefined} aria-hidden="true" />
            {verify.isPending ? 'Verifying...' : 'Verify DNS'}
          </Button>
          <DomainMenu domain={domain} onEdit={onEdit} onDelete={onDelete} />
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <RecordStatuses domain={domain} />
        {(domain.dkimSelectors.length > 0 || domain.notes) && (
          <dl className="space-y-1 text-sm">
            {domain.dkimSelectors.length > 0 && (
              <div className="flex flex-wrap items-center gap-2">
                <dt className="text-muted-foreground">DKIM selectors:</dt>
                {domain.dkimSelectors.map((selector) => (
                  <dd
                    key={selector}
                    className="min-w-0 rounded-full border bg-secondary px-2 py-0.5 font-mono text-xs wrap-anywhere"
                  >
                    {selector}
                  </dd>
                ))}
              </div>
            )}
            {domain.notes && (
              <div className="flex flex-wrap gap-2">
                <dt className="text-muted-foreground">Notes:</dt>
                <dd className="min-w-0 whitespace-pre-wrap wrap-anywhere">{domain.notes}</dd>
              </div>
            )}
          </dl>
        )}
        {!domain.isVerified && <DnsSetupInstructions domain={domain} />}
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={expanded}
          aria-controls={expanded ? detailsId : undefined}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
          {expanded ? 'Hide DNS check details' : 'Show DNS check details'}
        </Button>
        {expanded && <DomainDetails domainId={domain.id} id={detailsId} />}
        {footer}
      </CardContent>
    </Card>
  );
}
