import { useId, useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { DmarcReport, DmarcReportList } from '@contracts/dmarc';
import { QueryState } from '../../../components/query-state';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { useDmarcReports, type ReportSender, type ReportsFilter } from '../api';
import { complianceText, plural, reportPeriod, reportTitle, unauthenticatedText } from '../dmarc-text';
import { DeleteReportDialog } from './delete-report-dialog';
import { ReportDetailDialog } from './report-detail-dialog';
import { KeptFileLink, RecoveredPill } from './report-recovery';
import { SenderFilter, UnauthenticatedReportsNote } from './sender-filter';
import { Pill } from '../../../components/ui/pill';
import { formatDate } from '../../../lib/format';

type Open = { kind: 'detail' | 'delete'; report: DmarcReport } | null;

function ReportRow({ report, onOpen, onDelete }: { report: DmarcReport; onOpen: () => void; onDelete: () => void }) {
  const failed = report.status === 'failed';
  const name = reportTitle(report);
  const why = report.senderAuthenticated === false ? unauthenticatedText(report) : null;
  const period = failed ? `Uploaded ${formatDate(report.createdAt, { utc: true })}` : reportPeriod(report);
  return (
    <TableRow data-testid="dmarc-report" data-status={report.status}>
      <TableCell className="min-w-40 max-w-64">
        {failed ? (
          <div className="space-y-0.5">
            <span className="wrap-anywhere font-medium">{report.fileName}</span>
            <p className="text-xs text-red-700">
              Could not be imported: {report.error ?? 'the file could not be read.'}
            </p>
            <KeptFileLink report={report} />
          </div>
        ) : (
          <Button
            variant="link"
            className="h-auto whitespace-normal wrap-anywhere p-0 text-left"
            aria-label={`Open the report from ${name} for ${period}`}
            onClick={onOpen}
          >
            {name}
          </Button>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">{period}</TableCell>
      <TableCell className="text-right tabular-nums">{failed ? '–' : formatCount(report.messageCount)}</TableCell>
      <TableCell className="text-right tabular-nums">{failed ? '–' : complianceText(report.compliance)}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          <Pill tone={failed ? 'bad' : 'good'}>{failed ? 'Failed' : 'Imported'}</Pill>
          <RecoveredPill report={report} />
          {why && (
            <span title={why}>
              <Pill tone="warn" testId="unauthenticated-report">
                Unauthenticated
              </Pill>
              <span className="sr-only">{why}</span>
            </span>
          )}
        </div>
      </TableCell>
      <TableCell className="text-right">
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={
            failed ? `Delete the failed import ${report.fileName}` : `Delete the report from ${name} for ${period}`
          }
          onClick={onDelete}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </TableCell>
    </TableRow>
  );
}

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Report pages" className="flex items-center justify-end gap-2 text-sm">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page} of {pages}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

function ReportsTable({
  list,
  labelledBy,
  page,
  onPage,
  onOpen,
  onDelete,
}: {
  list: DmarcReportList;
  labelledBy: string;
  page: number;
  onPage: (page: number) => void;
  onOpen: (report: DmarcReport) => void;
  onDelete: (report: DmarcReport) => void;
}) {
  const { items, total, pageSize } = list;
  return (
    <div className="space-y-2">
      <Table aria-labelledby={labelledBy} className="min-w-[36rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Reporter</TableHead>
            <TableHead>Period</TableHead>
            <TableHead className="text-right">Messages</TableHead>
            <TableHead className="text-right">Compliance</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((report) => (
            <ReportRow
              key={report.id}
              report={report}
              onOpen={() => onOpen(report)}
              onDelete={() => onDelete(report)}
            />
          ))}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">{plural(total, 'report')}</p>
        <Pager page={page} pages={Math.max(1, Math.ceil(total / pageSize))} onPage={onPage} />
      </div>
    </div>
  );
}

/**
 * A paged list of reports, newest first (the server's order). A domain's reports can be narrowed by
 * sender; failed imports cannot (most were never read far enough to say). `hideWhenEmpty` is for the
 * failed imports: a heading over nothing would only be noise.
 */
export function ReportsList({
  filter,
  title,
  emptyText,
  hideWhenEmpty = false,
}: {
  filter: ReportsFilter;
  title: string;
  emptyText?: string;
  hideWhenEmpty?: boolean;
}) {
  const [page, setPage] = useState(1);
  const [sender, setSender] = useState<ReportSender>();
  const [open, setOpen] = useState<Open>(null);
  const titleId = useId();
  const domain = filter.domain;
  const reports = useDmarcReports(domain === undefined ? filter : { domain, sender }, page);

  const filterBySender = (next: ReportSender | undefined) => {
    setSender(next);
    setPage(1);
  };

  // Deleting the last report of the last page leaves that page empty: step back to the last page
  // with reports, as soon as this page's own answer (not the previous page's, kept on screen while
  // it loads) says so.
  const answer = reports.isPlaceholderData ? undefined : reports.data;
  if (answer && answer.items.length === 0 && page > 1) {
    setPage(Math.max(1, Math.min(page - 1, Math.ceil(answer.total / answer.pageSize))));
  }

  // Hidden rather than unmounted: an open dialog (and its pending delete) must outlive the last row.
  const hidden = hideWhenEmpty && (!reports.data || reports.data.total === 0);

  const close = (next: boolean) => {
    if (!next) setOpen(null);
  };
  return (
    <section hidden={hidden} aria-labelledby={titleId} aria-busy={reports.isFetching} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={titleId} className="text-sm font-semibold">
          {title}
        </h4>
        {domain !== undefined && <SenderFilter value={sender} onChange={filterBySender} />}
      </div>
      {domain !== undefined && (
        <UnauthenticatedReportsNote
          domain={domain}
          filtered={sender === 'unauthenticated'}
          onShow={() => filterBySender('unauthenticated')}
        />
      )}
      <QueryState
        query={reports}
        loading={
          <div role="status" className="space-y-2">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-9 w-full" />
            ))}
            <span className="sr-only">Loading reports</span>
          </div>
        }
        errorMessage={(error) => serverMessageOr(error, 'Could not load the reports.')}
        isEmpty={(data) => data.total === 0}
        empty={
          <p className="text-sm text-muted-foreground">
            {sender ? `No ${sender} reports for this domain.` : emptyText}
          </p>
        }
      >
        {(list) => (
          <ReportsTable
            list={list}
            labelledBy={titleId}
            page={page}
            onPage={setPage}
            onOpen={(report) => setOpen({ kind: 'detail', report })}
            onDelete={(report) => setOpen({ kind: 'delete', report })}
          />
        )}
      </QueryState>
      {open?.kind === 'detail' && <ReportDetailDialog report={open.report} onOpenChange={close} />}
      {open?.kind === 'delete' && <DeleteReportDialog report={open.report} onOpenChange={close} />}
    </section>
  );
}
