/** What the app shell shows above a signed-in page; each route in router.tsx declares its own. */
export interface ShellMeta {
  title: string;
  description?: string;
  /** Trail after the 'Dashboard' root link; the last item is the current page. */
  breadcrumbs?: Array<{ label: string; to?: string }>;
  /** Show the Add Domain button (to /domains) in the page header. */
  showAddDomain?: boolean;
}
