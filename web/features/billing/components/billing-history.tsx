import { ExternalLink, Receipt } from 'lucide-react';
import type { BillingMode, Invoice } from '@contracts/billing';
import { QueryState } from '../../../components/query-state';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { serverMessageOr } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useInvoices } from '../api';

/** An amount in the invoice's currency: '$49.00', '€40.00'. */
export function formatMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    // A currency code Intl does not know is still an amount someone paid.
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

const STATUS_LABELS: Record<string, string> = {
  paid: 'Paid',
  open: 'Open',
  draft: 'Draft',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

function EmptyHistory({ mode }: { mode: BillingMode }) {
  return (
    <div className="flex flex-col items-center gap-2 py-8 text-center" data-testid="billing-history-empty">
      <Receipt className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">No invoices yet</p>
      <p className="max-w-md text-sm text-muted-foreground">
        {mode === 'self-hosted'
          ? 'Billing is not configured on this server, so no payment is taken and there are no invoices.'
          : 'Your invoices appear here after your first payment.'}
      </p>
    </div>
  );
}

/** Billing history (part 2, section 2): the real invoices from GET /api/invoices, or an honest empty state. */
export function BillingHistory({ mode }: { mode: BillingMode }) {
  const invoices = useInvoices();
  return (
    <Card data-testid="billing-history">
      <CardHeader>
        <CardTitle className="text-lg">Billing History</CardTitle>
        <CardDescription>Your invoices, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={invoices}
          loading={<Skeleton className="h-24 w-full" />}
          errorMessage={(error) => serverMessageOr(error, 'Your invoices could not be loaded.')}
          isEmpty={(list) => list.length === 0}
          empty={<EmptyHistory mode={mode} />}
        >
          {(list) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Invoice</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Link</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((invoice: Invoice) => (
                  <TableRow key={invoice.id} data-testid="invoice-row">
                    <TableCell className="whitespace-nowrap">{formatDate(invoice.created)}</TableCell>
                    <TableCell>{invoice.number ?? invoice.id}</TableCell>
                    <TableCell className="text-right whitespace-nowrap">
                      {formatMoney(invoice.amountPaidCents, invoice.currency)}
                    </TableCell>
                    <TableCell>{STATUS_LABELS[invoice.status] ?? invoice.status}</TableCell>
                    <TableCell>
                      {invoice.hostedInvoiceUrl && (
                        <a
                          href={invoice.hostedInvoiceUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
                        >
                          View
                          <ExternalLink className="size-3.5" aria-hidden="true" />
                          <span className="sr-only">(opens in a new tab)</span>
                        </a>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
