import type { ReactNode } from 'react';
import type { DmarcReport, DmarcReportDetail } from '@contracts/dmarc';
import { QueryState } from '../../../components/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { serverMessageOr } from '../../../lib/api-client';
import { formatCount } from '../../../lib/format';
import { useDmarcReportDetail } from '../api';
import {
  authResultsText,
  complianceText,
  discoveryText,
  DISPOSITIONS_NOTE,
  reportFormatText,
  reportPeriod,
  reportTitle,
  unauthenticatedText,
} from '../dmarc-text';
import { Pill } from '../../../components/ui/pill';
import { RecoveryWarnings } from './report-recovery';

function ResultBadge({ result }: { result: string }) {
  return <Pill tone={result === 'pass' ? 'good' : result === 'fail' ? 'bad' : 'none'}>{result}</Pill>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="text-muted-foreground">{label}:</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

function policyText(report: DmarcReport): string {
  const policy = report.policyPublished;
  if (!policy) return 'N/A';
  const tags: Array<[string, string | number | null]> = [
    ['p', policy.p],
    ['sp', policy.sp],
    ['np', policy.np],
    ['adkim', policy.adkim],
    ['aspf', policy.aspf],
    ['pct', policy.pct],
    ['testing', policy.testing],
  ];
  return (
    tags
      .filter(([, value]) => value !== null)
      .map(([tag, value]) => `${tag}=${value}`)
      .join('; ') || 'N/A'
  );
}

function RecordsTable({ detail }: { detail: DmarcReportDetail }) {
  if (detail.records.length === 0) return <p className="text-sm text-muted-foreground">This report has no records.</p>;
  const partial = detail.recordCount > detail.records.length;
  return (
    <div className="space-y-2">
      {partial && (
        <p className="text-xs text-muted-foreground">
          The {formatCount(detail.records.length)} busiest of {formatCount(detail.recordCount)} records.
        </p>
      )}
      <Table aria-label="Report records" className="min-w-[40rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Source IP</TableHead>
            <TableHead className="text-right">Messages</TableHead>
            <TableHead>Disposition</TableHead>
            <TableHead>DKIM aligned</TableHead>
            <TableHead>SPF aligned</TableHead>
            <TableHead>Header from</TableHead>
            <TableHead>Authentication results</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {detail.records.map((record, index) => (
            <TableRow key={`${record.sourceIp}-${index}`} data-testid="dmarc-record">
              <TableCell className="font-mono text-xs">{record.sourceIp}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(record.count)}</TableCell>
              <TableCell>{record.disposition}</TableCell>
              <TableCell>
                <ResultBadge result={record.dkimResult} />
              </TableCell>
              <TableCell>
                <ResultBadge result={record.spfResult} />
              </TableCell>
              <TableCell className="min-w-32 wrap-anywhere">{record.headerFrom}</TableCell>
              <TableCell className="min-w-48 font-mono text-xs wrap-anywhere">
                {authResultsText(record, detail.schema)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="text-xs text-muted-foreground">{DISPOSITIONS_NOTE}</p>
    </div>
  );
}

function DetailBody({ report }: { report: DmarcReport }) {
  const detail = useDmarcReportDetail(report.id);
  return (
    <QueryState
      query={detail}
      loading={
        <div className="flex justify-center py-8">
          <Spinner label="Loading the report" />
        </div>
      }
      errorMessage={(error) => serverMessageOr(error, 'Could not load the report.')}
    >
      {(data) => <DetailView data={data} />}
    </QueryState>
  );
}

function DetailView({ data }: { data: DmarcReportDetail }) {
  const format = reportFormatText(data);
  const discovery = data.policyPublished?.discoveryMethod;
  return (
    <div className="min-w-0 space-y-4">
      <dl className="grid gap-1 text-sm sm:grid-cols-2">
        <Fact label="Report ID">{data.reportId ?? 'N/A'}</Fact>
        <Fact label="Reporter e-mail">{data.email ?? 'N/A'}</Fact>
        <Fact label="Messages">{formatCount(data.messageCount)}</Fact>
        <Fact label="Compliance">{complianceText(data.compliance)}</Fact>
        <Fact label="Published policy">
          <code className="font-mono text-xs">{policyText(data)}</code>
        </Fact>
        {discovery && <Fact label="Policy found by">{discoveryText(discovery)}</Fact>}
        {format && <Fact label="Report format">{format}</Fact>}
        {data.generator && <Fact label="Generator">{data.generator}</Fact>}
        <Fact label="File">{data.fileName}</Fact>
      </dl>
      <RecoveryWarnings report={data} />
      <RecordsTable detail={data} />
    </div>
  );
}

/** One report with its records: which IPs sent how much, and what SPF and DKIM said about them. */
export function ReportDetailDialog({
  report,
  onOpenChange,
}: {
  report: DmarcReport;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent data-testid="report-detail" className="max-h-[90vh] max-w-4xl grid-cols-1 overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="wrap-anywhere pr-6">Report from {reportTitle(report)}</DialogTitle>
          <DialogDescription>
            {report.domain ?? 'Unknown domain'} · {reportPeriod(report)}
          </DialogDescription>
        </DialogHeader>
        {report.senderAuthenticated === false && (
          <p
            role="note"
            className="rounded-md border border-yellow-200 bg-yellow-50 p-3 text-sm wrap-anywhere text-yellow-900"
          >
            {unauthenticatedText(report)}
          </p>
        )}
        <DetailBody report={report} />
      </DialogContent>
    </Dialog>
  );
}
