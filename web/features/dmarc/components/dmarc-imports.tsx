import { useId, useState } from 'react';
import { FileWarning, Plus } from 'lucide-react';
import type { DmarcReportDomain } from '@contracts/dmarc';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount, formatDate } from '../../../lib/format';
import { useAddReportDomainMutation, useDmarcReportDomains, useDmarcReports, useYourDomains } from '../api';
import { plural } from '../dmarc-text';
import { ReportsList } from './reports-list';

const FAILED = { status: 'failed' } as const;

function NotAddedDomain({ item, adding, onAdd }: { item: DmarcReportDomain; adding: boolean; onAdd: () => void }) {
  const latest = item.lastReportAt ? `, latest ${formatDate(item.lastReportAt, { utc: true })}` : '';
  return (
    <li
      data-testid="report-domain"
      data-domain={item.domain}
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3"
    >
      <div className="min-w-0">
        <p className="font-medium wrap-anywhere">{item.domain}</p>
        <p className="text-xs text-muted-foreground">
          {plural(item.reports, 'report')}, {formatCount(item.messages)} {item.messages === 1 ? 'message' : 'messages'}
          {latest}
        </p>
      </div>
      <Button size="sm" variant="outline" onClick={onAdd} disabled={adding}>
        <Plus aria-hidden="true" />
        {adding ? `Adding ${item.domain}...` : `Add ${item.domain}`}
      </Button>
    </li>
  );
}

/**
 * The account's DMARC imports, on Domain Management below the domains: what a domain's card cannot
 * show. Reports imported for a domain that is not one of the user's (an uploaded file may hold any
 * domain's reports), each with a button that adds the domain; and the files that could not be
 * imported, which belong to no domain. Hidden while there is nothing of either.
 */
export function DmarcImports() {
  const titleId = useId();
  const domains = useYourDomains();
  const reportDomains = useDmarcReportDomains();
  // Page 1 of the same query as the list below: one request, and the section knows whether it has any.
  const failed = useDmarcReports(FAILED, 1);
  const add = useAddReportDomainMutation();
  const [addingDomain, setAddingDomain] = useState<string | null>(null);

  const yours = new Set((domains.data ?? []).map((d) => d.domain));
  // Shown only once the domain list is known: a domain of the user's must never be offered again.
  const notAdded = domains.isSuccess ? (reportDomains.data?.items ?? []).filter((item) => !yours.has(item.domain)) : [];
  const failedCount = failed.data?.total ?? 0;
  const hidden = notAdded.length === 0 && failedCount === 0;

  function addDomain(domain: string) {
    setAddingDomain(domain);
    add.mutate(domain, {
      onSuccess: (added) =>
        toast({
          title: 'Domain Added',
          description: `${added.domain} was added with its DMARC reports. Publish the DNS records on its card, then click Verify DNS.`,
        }),
      onError: (failure) =>
        toast({
          title: 'Failed to add domain',
          description: serverMessageOr(failure, 'Please try again.'),
          variant: 'destructive',
        }),
      onSettled: () => setAddingDomain(null),
    });
  }

  return (
    <Card hidden={hidden} data-testid="dmarc-imports" className="space-y-4 p-4 sm:p-6">
      <section aria-labelledby={titleId} className="space-y-4">
        <div className="flex items-start gap-3">
          <FileWarning className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="space-y-1">
            <h2 id={titleId} className="text-base font-semibold">
              DMARC report imports
            </h2>
            <p className="text-sm text-muted-foreground">
              Imported files that no domain's card shows: for your whole account.
            </p>
          </div>
        </div>
        {notAdded.length > 0 && (
          <section aria-label="Reports for domains you have not added" className="space-y-2">
            <h3 className="text-sm font-semibold">Reports for domains you have not added</h3>
            <p className="text-sm text-muted-foreground">
              These reports were imported, but their domain is not one of yours, so no card shows them. Add the domain
              to see them under its DMARC reports.
            </p>
            <ul className="space-y-2">
              {notAdded.map((item) => (
                <NotAddedDomain
                  key={item.domain}
                  item={item}
                  adding={addingDomain === item.domain}
                  onAdd={() => addDomain(item.domain)}
                />
              ))}
            </ul>
          </section>
        )}
        <ReportsList filter={FAILED} title="Files that could not be imported" hideWhenEmpty />
      </section>
    </Card>
  );
}
