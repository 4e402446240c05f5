import type { DomainChecks, SpfNode, SpfSenderResult, SpfTerm } from '@contracts/domains';
import type { Tone } from '../../../components/ui/pill';
import { Pill } from '../../../components/ui/pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { CheckSection, Limit } from './check-section';

/** RFC 7208, section 4.6.4: at most 10 DNS-querying terms, and at most 2 of them may find nothing. */
export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;

/** "1", or "1 (IPv6: 2)" when an IPv6 sender's lookups find nothing more often (a and mx ask for AAAA records). */
const voidCount = (term: SpfTerm) =>
  term.voids === term.voidsIpv6 ? String(term.voids) : `${term.voids} (IPv6: ${term.voidsIpv6})`;

function TermsTable({ node }: { node: SpfNode & { terms: SpfTerm[] } }) {
  return (
    <Table aria-label={`Terms of the SPF record of ${node.domain}`} className="text-xs">
      <TableHeader>
        <TableRow>
          <TableHead>Term</TableHead>
          <TableHead>Lookups</TableHead>
          <TableHead>Void lookups</TableHead>
          <TableHead>Note</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {node.terms.map((term, index) => (
          <TableRow key={`${term.term}-${index}`}>
            <TableCell className="break-all font-mono">{term.term}</TableCell>
            <TableCell>{term.lookups}</TableCell>
            <TableCell className="whitespace-nowrap">{voidCount(term)}</TableCell>
            <TableCell className="text-muted-foreground">{term.note}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function SpfTreeNode({ node }: { node: SpfNode }) {
  const { terms } = node;
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
      {/* Checks stored before terms were counted one by one have none. */}
      {terms && terms.length > 0 && <TermsTable node={{ ...node, terms }} />}
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

const RESULT_TONES: Record<SpfSenderResult['result'], Tone> = {
  pass: 'good',
  fail: 'bad',
  permerror: 'bad',
  softfail: 'warn',
  neutral: 'warn',
  temperror: 'warn',
  none: 'none',
};

function SenderResults({ evaluation }: { evaluation: NonNullable<DomainChecks['spf']['senderEvaluation']> }) {
  return (
    <div role="group" aria-label="Results for your sending IPs" className="space-y-1">
      <p className="text-xs font-medium">Results for your sending IPs</p>
      <p className="text-xs text-muted-foreground">
        Evaluated as mail from {evaluation.sender} with HELO {evaluation.helo}.
      </p>
      <Table className="text-xs">
        <TableHeader>
          <TableRow>
            <TableHead>IP address</TableHead>
            <TableHead>Result</TableHead>
            <TableHead>Why</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {evaluation.results.map((result) => (
            <TableRow key={result.ip}>
              <TableCell className="font-mono">{result.ip}</TableCell>
              <TableCell>
                <Pill tone={RESULT_TONES[result.result]}>{result.result}</Pill>
              </TableCell>
              <TableCell className="wrap-anywhere">{result.reason}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

export function SpfSection({ spf }: { spf: DomainChecks['spf'] }) {
  // Shown apart only when an IPv6 sender meets more (or fewer) names without records than an IPv4 one.
  const ipv6Differs = spf.voidLookupCountIpv6 !== undefined && spf.voidLookupCountIpv6 !== spf.voidLookupCount;
  return (
    <CheckSection title="SPF" check={spf} testId="check-spf">
      <div className="flex flex-wrap gap-2">
        <Limit used={spf.lookupCount} limit={SPF_LOOKUP_LIMIT} text="DNS lookups" />
        <Limit
          used={spf.voidLookupCount}
          limit={SPF_VOID_LOOKUP_LIMIT}
          text={ipv6Differs ? 'void lookups (IPv4 senders)' : 'void lookups'}
        />
        {ipv6Differs && (
          <Limit used={spf.voidLookupCountIpv6!} limit={SPF_VOID_LOOKUP_LIMIT} text="void lookups (IPv6 senders)" />
        )}
      </div>
      {spf.tree && (
        <div className="space-y-1">
          <p className="text-xs font-medium">Include tree</p>
          <ul data-testid="spf-tree" aria-label="SPF include tree" className="space-y-2">
            <SpfTreeNode node={spf.tree} />
          </ul>
        </div>
      )}
      {spf.senderEvaluation && spf.senderEvaluation.results.length > 0 && (
        <SenderResults evaluation={spf.senderEvaluation} />
      )}
    </CheckSection>
  );
}
