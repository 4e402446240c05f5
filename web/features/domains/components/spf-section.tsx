import type { DomainChecks, SpfNode } from '@contracts/domains';
import { CheckSection, Limit } from './check-section';

/** RFC 7208, section 4.6.4: at most 10 DNS-querying terms, and at most 2 of them may find nothing. */
export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;

function SpfTreeNode({ node }: { node: SpfNode }) {
  return (
    <li className="space-y-1">
      <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="font-medium">{node.domain}</span>
        <span className="text-muted-foreground">
          {node.lookups} {node.lookups === 1 ? 'lookup' : 'lookups'}
        </span>
      </div>
      {node.record && <code className="block break-all font-mono text-xs text-muted-foreground">{node.record}</code>}
      {node.error && <p className="text-xs text-red-700">{node.error}</p>}
      {node.children.length > 0 && (
        <ul className="ml-3 space-y-2 border-l pl-3">
          {node.children.map((child, index) => (
            <SpfTreeNode key={`${child.domain}-${index}`} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function SpfSection({ spf }: { spf: DomainChecks['spf'] }) {
  return (
    <CheckSection title="SPF" check={spf} testId="check-spf">
      <div className="flex flex-wrap gap-2">
        <Limit used={spf.lookupCount} limit={SPF_LOOKUP_LIMIT} text="DNS lookups" />
        <Limit used={spf.voidLookupCount} limit={SPF_VOID_LOOKUP_LIMIT} text="void lookups" />
      </div>
      {spf.tree && (
        <div className="space-y-1">
          <p className="text-xs font-medium">Include tree</p>
          <ul data-testid="spf-tree" aria-label="SPF include tree" className="space-y-2">
            <SpfTreeNode node={spf.tree} />
          </ul>
        </div>
      )}
    </CheckSection>
  );
}
