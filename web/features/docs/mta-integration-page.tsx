import { PublicPlaceholder } from '../../components/public-placeholder';

// Placeholder until the MTA Integration Guide page is built.
export default function MtaIntegrationPage() {
  return (
    <PublicPlaceholder title="MTA Integration Guide">
      This guide will show how to connect Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal to InboxPulse.
    </PublicPlaceholder>
  );
}
