import type { DmarcReport } from '../../../../contracts/dmarc';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { useUnauthorizedHandler } from '../../domains/use-action-errors';
import { useDeleteDmarcReportMutation } from '../api';
import { reportPeriod, reportTitle } from '../dmarc-text';

function what(report: DmarcReport): string {
  return report.status === 'failed' ? `the failed import ${report.fileName}` : `the report from ${reportTitle(report)} for ${reportPeriod(report)}`;
}

/** Confirms before a report (and its records) is deleted; the analytics are recomputed without it. */
export function DeleteReportDialog({ report, onOpenChange }: { report: DmarcReport; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteDmarcReportMutation();
  const onUnauthorized = useUnauthorizedHandler();

  function confirm() {
    remove.mutate(report.id, {
      onSuccess: () => {
        onOpenChange(false);
        toast({ title: 'Report deleted', description: `Deleted ${what(report)}.` });
      },
      onError: (failure) => {
        if (onUnauthorized(failure)) return;
        toast({ title: 'Delete Failed', description: serverMessageOr(failure, 'Could not delete the report. Please try again.'), variant: 'destructive' });
      },
    });
  }

  return (
    <Dialog open onOpenChange={(next) => !remove.isPending && onOpenChange(next)}>
      <DialogContent role="alertdialog" data-testid="delete-report-dialog">
        <DialogHeader>
          <DialogTitle>Delete report</DialogTitle>
          <DialogDescription>
            Delete {what(report)}? {report.status === 'imported' ? 'Its records leave the analytics. ' : ''}This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
