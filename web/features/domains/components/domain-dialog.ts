import type { Domain } from '@contracts/domains';

/** What the Edit and Delete dialogs of a domain are given: both are opened from the domain card's menu. */
export interface DomainDialogProps {
  domain: Domain;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes back to: the dialog is opened from a menu, not from a trigger of its own. */
  onCloseAutoFocus?: (event: Event) => void;
}
