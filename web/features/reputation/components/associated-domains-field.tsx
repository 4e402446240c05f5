import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { useDomains } from '../../../lib/queries/domains';
import { PATHS } from '../../../lib/paths';

/**
 * The user's domains a shared IP sends for (part 2, section 5: choosable only when the type is
 * shared). Checkboxes rather than a multi-select: they read and tap well at 390 px.
 */
export function AssociatedDomainsField({
  idPrefix,
  enabled,
  selected,
  onChange,
}: {
  idPrefix: string;
  enabled: boolean;
  selected: string[];
  onChange: (domains: string[]) => void;
}) {
  const domains = useDomains();
  const hintId = `${idPrefix}-domains-hint`;
  const toggle = (name: string, checked: boolean) =>
    onChange(checked ? [...selected, name] : selected.filter((domain) => domain !== name));
  return (
    <fieldset className="space-y-2" disabled={!enabled} aria-describedby={hintId}>
      <legend className="text-sm font-medium">Associated domains</legend>
      <p id={hintId} className="text-xs text-muted-foreground">
        {enabled
          ? 'The domains that send through this shared IP.'
          : 'A dedicated IP sends for you alone: choose Shared to name the domains that use it.'}
      </p>
      <QueryState
        query={domains}
        loading={<p className="text-sm text-muted-foreground">Loading your domains...</p>}
        // A line of the field, like its loading and empty lines: the form around it stays usable for a dedicated IP.
        failed={() => <p className="text-sm text-destructive">Your domains could not be loaded.</p>}
        isEmpty={(list) => list.length === 0}
        empty={
          <p className="text-sm text-muted-foreground">
            You have no domains yet.{' '}
            <Link to={PATHS.domains} className="font-medium text-primary underline-offset-4 hover:underline">
              Add one
            </Link>{' '}
            to associate it.
          </p>
        }
      >
        {(list) => (
          <ul className="max-h-40 space-y-1 overflow-y-auto">
            {list.map((domain) => (
              <li key={domain.id}>
                <label className="flex items-center gap-2 text-sm has-disabled:opacity-60">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={enabled && selected.includes(domain.domain)}
                    onChange={(event) => toggle(domain.domain, event.target.checked)}
                  />
                  <span className="wrap-anywhere">{domain.domain}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </fieldset>
  );
}
