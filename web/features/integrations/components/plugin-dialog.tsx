import type { Integration as Plugin } from '@content/integrations';
import type { Integration } from '@contracts/integrations';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { POSTMASTER_PLUGIN_ID } from '../plugins';
import { InstallWizard } from './install-wizard';
import { ManageIntegration } from './manage-integration';
import { PostmasterPanel } from './postmaster-panel';

/**
 * A plugin's dialog: the two-step Install for a plugin not installed yet, the management of an
 * installed one, and Google's sign-in for Postmaster Tools. `?manage=<pluginId>` opens it.
 */
export function PluginDialog({
  plugin,
  installed,
  onClose,
}: {
  plugin: Plugin;
  installed: Integration | undefined;
  onClose: () => void;
}) {
  const title = installed
    ? `Manage ${plugin.name}`
    : plugin.id === POSTMASTER_PLUGIN_ID
      ? `Connect ${plugin.name}`
      : `Install ${plugin.name}`;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto"
        data-testid={`plugin-dialog-${plugin.id}`}
      >
        <DialogHeader>
          <DialogTitle className="pr-6">{title}</DialogTitle>
          <DialogDescription>{plugin.description}</DialogDescription>
        </DialogHeader>
        {plugin.id === POSTMASTER_PLUGIN_ID ? (
          <PostmasterPanel plugin={plugin} onCancel={onClose} />
        ) : installed ? (
          <ManageIntegration plugin={plugin} integration={installed} onUninstalled={onClose} />
        ) : (
          <InstallWizard plugin={plugin} onCancel={onClose} onInstalled={() => {}} />
        )}
      </DialogContent>
    </Dialog>
  );
}
