import { getDomain } from 'tldts';
import { type DnsblCatalogueEntry, type LastOctetBits, blocklistsFor } from './dnsbl-catalogue';
import { parseIp, reversedIp } from '../../platform/dns/ip-address';
import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';

export { DNSBL_CATALOGUE, blocklistsFor, findBlocklist, type DnsblCatalogueEntry } from './dnsbl-catalogue';

/*
 * The DNS blocklist engine: asks lists of the catalogue about an IP address or a domain through the
 * product resolver, and reads each answer by the list's own rule (dnsbl-catalogue.ts says how). A
 * refusal the list documents (Spamhaus' 127.255.255.x, URIBL's and SURBL's bit 1), an answer outside
 * the list's table and a list that does not answer in time are "unknown", never "listed"
 * (DESIGN.md, known traps).
 */

/**
 * Queries in flight at once in this process, across every caller. Monitoring runs ask ~40 lists for
 * each of many IPs: without one shared bound they would fire thousands of UDP queries at once, and
 * the resolver and the lists' servers drop what they cannot take (lists then look silent).
 */
export const DNSBL_CONCURRENCY = 64;
export const DNSBL_TIMEOUT_MS = 2_000;
/** Longer TXT reasons are cut: they are shown beside the listing, not read as documents. */
const TXT_MAX = 500;

export type BlocklistStatus = 'listed' | 'clear' | 'unknown';

export interface BlocklistAnswer {
  listId: string;
  status: BlocklistStatus;
  /** The raw A records the list answered. */
  answers: string[];
  /** What the listing means (listed), or why the answer could not be used (unknown); null when clear. */
  reason: string | null;
  /** The list's TXT record at the same name, when listed. */
  txt: string | null;
  checkedAt: Date;
}

/** A counting semaphore: a slot per query on the wire, handed to waiters in arrival order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async take(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

const slots = new Slots(DNSBL_CONCURRENCY);

class DnsblTimeout extends Error {}

/**
 * `query` run in a slot, given up after `timeoutMs` (its answer, if it comes later, is dropped).
 * The time budget starts when the query goes out, not while it waits for a slot: a large run is
 * bounded by the limit, not turned into timeouts.
 */
async function inSlot<T>(timeoutMs: number, query: () => Promise<T>): Promise<T> {
  await slots.take();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      query(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DnsblTimeout()), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    slots.give();
  }
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The name a domain list is asked about: the registered domain (mail.brand.co.uk -> brand.co.uk); throws on what is not a host name. */
export function blocklistDomain(domain: string): string {
  const name = domain.trim().toLowerCase().replace(/\.$/, '');
  const valid =
    name.length <= 253 &&
    name.includes('.') &&
    name.split('.').every((label) => HOST_LABEL.test(label)) &&
    parseIp(name) === null;
  const registered = valid ? getDomain(name) : null;
  if (!registered) throw new TypeError(`"${domain}" is not a domain name`);
  return registered;
}

interface Query {
  /** The name before the list's zone. */
  prefix: string;
  lists: readonly DnsblCatalogueEntry[];
}

function queryFor(target: { ip: string } | { domain: string }, lists?: readonly DnsblCatalogueEntry[]): Query {
  if ('domain' in target) {
    const prefix = blocklistDomain(target.domain);
    return { prefix, lists: (lists ?? blocklistsFor('domain')).filter((list) => list.kind === 'domain') };
  }
  const address = parseIp(target.ip);
  if (!address) throw new TypeError(`"${target.ip}" is not an IP address`);
  const family = address.kind();
  const prefix = reversedIp(target.ip);
  const answersFamily = (list: DnsblCatalogueEntry) =>
    list.kind === 'ip' && (family === 'ipv6' ? list.ipv6 : list.ipv4 !== false);
  return { prefix, lists: (lists ?? blocklistsFor(family)).filter(answersFamily) };
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** One A answer read by its list's rule. */
type Reading =
  { kind: 'listed'; meaning: string } | { kind: 'refused'; why: string } | { kind: 'not-listed' } | { kind: 'outside' };

function readAnswer(list: DnsblCatalogueEntry, answer: string): Reading {
  const rule = list.answers;
  if (rule.read === 'bits') return readBits(rule, answer);
  const why = rule.refused?.[answer];
  if (why) return { kind: 'refused', why };
  if (rule.notListed?.[answer]) return { kind: 'not-listed' };
  const meaning = rule.listed[answer];
  return meaning ? { kind: 'listed', meaning } : { kind: 'outside' };
}

const LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function readBits(rule: LastOctetBits, answer: string): Reading {
  const octets = LOOPBACK.exec(answer);
  if (!octets || (rule.middleOctets === 'zero' && (octets[1] !== '0' || octets[2] !== '0'))) return { kind: 'outside' };
  const last = Number(octets[3]);
  const setBits = (table: Record<number, string>) =>
    Object.entries(table).filter(([bit]) => (last & Number(bit)) !== 0);
  // A refusal bit is never read beside listing bits: the list did not look the name up.
  const [refused] = setBits(rule.refused ?? {});
  if (refused) return { kind: 'refused', why: refused[1] };
  const meanings = setBits(rule.listed).map(([, meaning]) => meaning);
  return meanings.length > 0 ? { kind: 'listed', meaning: meanings.join('; ') } : { kind: 'outside' };
}

/** How a list's A records read: listed (with what they mean), clear, or unusable (with why). */
export function classifyAnswers(
  list: DnsblCatalogueEntry,
  answers: string[],
): { status: BlocklistStatus; reason: string | null } {
  const readings = answers.map((answer) => ({ answer, reading: readAnswer(list, answer) }));
  const meanings = readings.flatMap(({ reading }) => (reading.kind === 'listed' ? [reading.meaning] : []));
  if (meanings.length > 0) return { status: 'listed', reason: [...new Set(meanings)].join('; ') };
  for (const { answer, reading } of readings) {
    if (reading.kind === 'refused')
      return { status: 'unknown', reason: `The list refused the query: ${reading.why} (${answer}).` };
  }
  const outside = readings.filter(({ reading }) => reading.kind === 'outside').map(({ answer }) => answer);
  if (outside.length === 0) return { status: 'clear', reason: null };
  const loopback = outside.every((answer) => answer.startsWith('127.'));
  return {
    status: 'unknown',
    reason: `The list answered ${outside.join(', ')}, which is not a listing code (${loopback ? 'the query was likely refused' : 'a resolver on the way likely rewrote the answer'}).`,
  };
}

async function askList(
  dns: DnsResolver,
  name: string,
  list: DnsblCatalogueEntry,
  timeoutMs: number,
): Promise<BlocklistAnswer> {
  const base = { listId: list.id, txt: null };
  let answers: string[];
  try {
    answers = await inSlot(timeoutMs, () => dns.a(name));
  } catch (err) {
    const checkedAt = new Date();
    if (err instanceof DnsblTimeout)
      return {
        ...base,
        status: 'unknown',
        answers: [],
        reason: `The list did not answer within ${seconds(timeoutMs)}.`,
        checkedAt,
      };
    if (err instanceof DnsLookupError)
      return { ...base, status: 'unknown', answers: [], reason: `The lookup failed (${err.code}).`, checkedAt };
    throw err;
  }
  const checkedAt = new Date();
  const { status, reason } = classifyAnswers(list, answers);
  if (status !== 'listed') return { ...base, status, answers, reason, checkedAt };
  // The TXT record usually names the listing (a ticket, a lookup URL): useful, not required.
  const txt = await inSlot(timeoutMs, () => dns.txt(name)).then(
    (records) => (records.length > 0 ? records.join(' ').slice(0, TXT_MAX) : null),
    () => null,
  );
  return { ...base, status, answers, reason, txt, checkedAt };
}

/**
 * Asks every list (default: all lists for the target's kind) through the product resolver, with a
 * per-list timeout and one process-wide concurrency limit; never throws for a list's failure (that
 * is 'unknown'). Throws a TypeError when the target is not an IP address or a domain name. An
 * IPv4-mapped IPv6 address is asked as the IPv4 address it is; IPv6 goes only to lists that answer
 * for it; `lists` of the wrong kind for the target are left out.
 */
export async function lookUpBlocklists(
  dns: DnsResolver,
  target: { ip: string } | { domain: string },
  options: { lists?: readonly DnsblCatalogueEntry[]; timeoutMs?: number } = {},
): Promise<BlocklistAnswer[]> {
  const { prefix, lists } = queryFor(target, options.lists);
  const timeoutMs = options.timeoutMs ?? DNSBL_TIMEOUT_MS;
  return Promise.all(lists.map((list) => askList(dns, `${prefix}.${list.zone}`, list, timeoutMs)));
}
