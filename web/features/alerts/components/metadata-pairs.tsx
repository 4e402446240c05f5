import { formatDateTime } from '../../../lib/format';

/** Words that are names of protocols and records, written as their RFCs write them. */
const ACRONYMS = new Set([
  'spf',
  'dkim',
  'dmarc',
  'dns',
  'ip',
  'ipv4',
  'ipv6',
  'mx',
  'ptr',
  'url',
  'tls',
  'id',
  'smtp',
  'bimi',
  'rdap',
]);

/** "spfRecord" -> "SPF record", "old_value" -> "Old value": keys read as words. */
export function keyInWords(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-muted-foreground">None</span>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (typeof value === 'string') return <>{ISO_TIME.test(value) ? formatDateTime(value) : value}</>;
  if (typeof value === 'number' || typeof value === 'bigint') return <>{String(value)}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-muted-foreground">None</span>;
    if (value.every((item) => typeof item !== 'object' || item === null))
      return <>{value.map((item) => String(item)).join(', ')}</>;
    return (
      <ul className="space-y-2">
        {value.map((item, index) => (
          <li key={index} className="rounded border p-2">
            <Value value={item} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === 'object') return <MetadataPairs metadata={value as Record<string, unknown>} />;
  return <>{String(value)}</>;
}

/** Any other alert's metadata as label and value pairs, nested ones indented (the issue asks for it readable, not raw JSON). */
export function MetadataPairs({ metadata }: { metadata: Record<string, unknown> }) {
  return (
    <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[minmax(8rem,max-content)_1fr]" data-testid="metadata-pairs">
      {Object.entries(metadata).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-sm text-muted-foreground">{keyInWords(key)}</dt>
          <dd className="min-w-0 text-sm wrap-anywhere">
            <Value value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
