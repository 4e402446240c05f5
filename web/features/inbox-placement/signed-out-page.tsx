import { PublicLayout } from '../../components/public-layout';
import { SignedOutNotice } from './signed-out-notice';

/**
 * The signed-out form of the route, for its `signedOut` handle in router.tsx (the gate otherwise
 * shows the login screen in place).
 */
export default function InboxPlacementSignedOut() {
  return (
    <PublicLayout>
      <div className="mx-auto max-w-6xl px-4 py-16">
        <SignedOutNotice />
      </div>
    </PublicLayout>
  );
}
