import type { DmarcReport } from '@contracts/dmarc';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useDeleteDmarcReportMutation } from '../api';
import { reportPeriod, reportTitle } from '../dmarc-text';

function what(report: DmarcReport): string {
  return report.status === 'failed'
    ? `the failed import ${report.fileName}`
    : `the report from ${reportTitle(report)} for ${reportPeriod(report)}`;
}

/** Confirms before a report (and its records) is deleted; the analytics are recomputed without it. */
export function DeleteReportDialog({
  report,
  onOpenChange,
}: {
  report: DmarcReport;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeleteDmarcReportMutation();

  function confirm() {
    remove.mutate(report.id, {
      onSuccess: () => {
        onOpenChange(false);
        toast({ title: 'Report deleted', description: `Deleted ${what(report)}.` });
      },
      onError: (failure) =>
        toast({
          title: 'Delete Failed',
          description: serverMessageOr(failure, 'Could not delete the report. Please try again.'),
          variant: 'destructive',
        }),
    });
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={onOpenChange}
      title="Delete report"
      description={`Delete ${what(report)}? ${report.status === 'imported' ? 'Its records leave the analytics. ' : ''}This cannot be undone.`}
      pending={remove.isPending}
      onConfirm={confirm}
      testId="delete-report-dialog"
    />
  );
}
