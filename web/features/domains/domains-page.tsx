import { useState, type ReactNode } from 'react';
import { Globe, Plus } from 'lucide-react';
import type { Domain } from '@contracts/domains';
import { QueryState } from '../../components/query-state';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ContentSpinner } from '../../components/ui/spinner';
import { useDomainList } from './api';
import { AddDomainForm } from './components/add-domain-form';
import { DeleteDomainDialog } from './components/delete-domain-dialog';
import { DomainCard } from './components/domain-card';
import { EditDomainDialog } from './components/edit-domain-dialog';

type DialogState = { kind: 'edit' | 'delete'; domain: Domain } | null;

/**
 * A closing dialog gives focus back to the actions menu of its domain's card; a deleted domain has
 * no card left, so focus goes to the Add Domain button (or wherever the dialog's default puts it).
 */
function returnFocusTo(domain: Domain) {
  return (event: Event) => {
    const buttons = document.querySelectorAll<HTMLElement>('[data-domain-actions], [data-add-domain]');
    const target =
      [...buttons].find((button) => button.dataset.domainActions === domain.domain) ??
      [...buttons].find((button) => button.dataset.addDomain !== undefined);
    if (!target) return;
    event.preventDefault();
    target.focus();
  };
}

/**
 * Domain Management (part 2, section 2); the shell shows its title and breadcrumb (router.tsx).
 * `renderCardFooter` adds to each domain's card what other features show about it.
 */
export default function DomainsPage({ renderCardFooter }: { renderCardFooter?: (domain: Domain) => ReactNode }) {
  const domains = useDomainList();
  const [adding, setAdding] = useState(false);
  // The dialogs live here, not in the cards, so a deleted domain's card can go while its dialog finishes.
  const [dialog, setDialog] = useState<DialogState>(null);

  const list = domains.data ?? [];
  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  const showAddButton = !adding && domains.isSuccess && list.length > 0;
  return (
    <div data-testid="domains-page" className="space-y-6">
      {domains.isSuccess && list.length > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-muted-foreground">
            {list.length} {list.length === 1 ? 'domain' : 'domains'}
          </p>
          {showAddButton && (
            <Button data-add-domain="" onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" />
              Add Domain
            </Button>
          )}
        </div>
      )}
      {adding && <AddDomainForm onClose={() => setAdding(false)} />}
      <QueryState
        query={domains}
        loading={<ContentSpinner label="Loading domains" />}
        errorMessage="Could not load your domains."
        errorVariant="card"
        isEmpty={(data) => data.length === 0}
        empty={
          adding ? null : (
            <Card data-testid="domains-empty" className="flex flex-col items-center gap-3 px-4 py-12 text-center">
              <Globe className="size-10 text-muted-foreground" aria-hidden="true" />
              <h2 className="text-lg font-semibold">No domains added yet</h2>
              <p className="max-w-md text-sm text-muted-foreground">
                Add the domains you send e-mail from. We check their SPF, DKIM and DMARC records and tell you what to
                fix.
              </p>
              <Button data-add-domain="" onClick={() => setAdding(true)}>
                <Plus aria-hidden="true" />
                Add Your First Domain
              </Button>
            </Card>
          )
        }
      >
        {(data) => (
          <ul aria-label="Your domains" className="space-y-4">
            {data.map((domain) => (
              <li key={domain.id}>
                <DomainCard
                  domain={domain}
                  onEdit={() => setDialog({ kind: 'edit', domain })}
                  onDelete={() => setDialog({ kind: 'delete', domain })}
                  footer={renderCardFooter?.(domain)}
                />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {dialog?.kind === 'edit' && (
        <EditDomainDialog
          domain={dialog.domain}
          open
          onOpenChange={closeDialog}
          onCloseAutoFocus={returnFocusTo(dialog.domain)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDomainDialog
          domain={dialog.domain}
          open
          onOpenChange={closeDialog}
          onCloseAutoFocus={returnFocusTo(dialog.domain)}
        />
      )}
    </div>
  );
}
