import type { ReactNode } from 'react';
import { NotAvailableYet } from './not-available-yet';
import { PublicLayout } from './public-layout';

/** A public page that is not built yet: its title and an honest note, inside the public frame. */
export function PublicPlaceholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <PublicLayout>
      <div className="mx-auto max-w-6xl px-4 py-10">
        <h1 className="mb-8 text-3xl font-bold tracking-tight">{title}</h1>
        <NotAvailableYet>{children}</NotAvailableYet>
      </div>
    </PublicLayout>
  );
}
