import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the Alert Capabilities page is built.
export default function AlertCapabilitiesPage() {
  return (
    <PublicPlaceholder title="Alert Capabilities">
      This page will describe the alerts InboxPulse can raise and the channels it can send them through.
    </PublicPlaceholder>
  );
}
