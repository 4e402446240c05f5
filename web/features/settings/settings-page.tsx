import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the settings screen is built; the shell shows its title (router.tsx).
export default function SettingsPage() {
  return (
    <div data-testid="settings-page">
      <NotAvailableYet>Here you will manage your API key and webhook token and, if you ever need to, delete your account.</NotAvailableYet>
    </div>
  );
}
