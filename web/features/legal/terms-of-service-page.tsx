import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the Terms of Service page is built.
export default function TermsOfServicePage() {
  return (
    <PublicPlaceholder title="Terms of Service">
      The terms of service will set out the rules for using InboxPulse, its plans and billing, and the responsibilities of both parties.
    </PublicPlaceholder>
  );
}
