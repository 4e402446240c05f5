import {
  MAX_MONITORED_IPS,
  type AddIpRequest,
  type BulkImportRequest,
  type IpAddress,
  type IpType,
  type ReputationDetail,
} from '@contracts/reputation';
import type { z } from 'zod';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import { findBlocklist } from '../engine/blocklists/dnsbl-catalogue';
import { AppError } from '../platform/errors';
import { expandBlock, monitorableAddress, parseCidrBlock } from './cidr';
import {
  countUserIpsLocked,
  deleteUserIp,
  insertIps,
  listUserIps,
  listUserResults,
  type IpAddressRow,
  type ResultRow,
} from './ip-addresses.repo';
import { ownDomainNames } from '../domains/domain-reputation.service';
import { requestReputationCheck } from './reputation-check';

type Ctx = Pick<AppContext, 'db' | 'jobs'>;
export const IP_NOT_FOUND = 'IP address not found';
/** How many already monitored addresses a refused import names. */
const NAMED_DUPLICATES = 5;

/**
 * Each answer as the screens show it, joined with the catalogue; listed first, then by tier (the
 * lists that matter most on top). An answer from a list no longer in the catalogue is left out.
 * The one mapping for IPs and domains alike.
 */
export function toReputationDetails(rows: readonly ResultRow[]): ReputationDetail[] {
  const details: ReputationDetail[] = [];
  for (const row of rows) {
    const list = findBlocklist(row.listId);
    if (!list) continue;
    details.push({
      listId: row.listId,
      provider: list.name,
      zone: list.zone,
      tier: list.tier,
      status: row.status,
      listed: row.status === 'listed',
      answers: row.answers,
      reason: row.reason,
      txt: row.txt,
      removalUrl: list.removalUrl,
      ignored: row.ignored,
      checkedAt: row.checkedAt.toISOString(),
    });
  }
  return details.sort(
    (a, b) => Number(b.listed) - Number(a.listed) || a.tier - b.tier || a.provider.localeCompare(b.provider),
  );
}

/** The rows grouped by the IP or domain they are for. */
export function groupResults(rows: readonly ResultRow[], key: 'ipAddressId' | 'domainId'): Map<number, ResultRow[]> {
  const groups = new Map<number, ResultRow[]>();
  for (const row of rows) {
    const id = row[key];
    if (id === null) continue;
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

export function toIpAddress(row: IpAddressRow, results: readonly ResultRow[] = []): IpAddress {
  return {
    id: row.id,
    ipAddress: row.ipAddress,
    label: row.label,
    type: row.type,
    associatedDomains: row.associatedDomains,
    status: row.status,
    blacklistCount: row.blacklistCount,
    totalProviders: row.totalProviders,
    senderScore: row.senderScore,
    scoreFactors: row.scoreFactors,
    reverseDns: row.reverseDns,
    reverseDnsConfirmed: row.reverseDnsConfirmed,
    lastChecked: row.lastChecked?.toISOString() ?? null,
    reputationDetails: toReputationDetails(results),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The user's IPs, newest first, each with every list's latest answer. */
export async function listIpAddresses(ctx: Ctx, userId: number): Promise<IpAddress[]> {
  const [rows, results] = await Promise.all([listUserIps(ctx.db, userId), listUserResults(ctx.db, userId, 'ip')]);
  const byIp = groupResults(results, 'ipAddressId');
  return rows.map((row) => toIpAddress(row, byIp.get(row.id)));
}

/** Associated domains are for shared IPs, and must be the user's own (part 2 section 5). */
async function checkedAssociatedDomains(ctx: Ctx, userId: number, type: IpType, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  if (type !== 'shared')
    throw new AppError('validation_error', 'Associated domains can be chosen only when the IP type is shared');
  const own = new Set(await ownDomainNames(ctx.db, userId, unique));
  const foreign = unique.find((name) => !own.has(name));
  if (foreign) throw new AppError('validation_error', `${foreign} is not one of your domains`);
  return unique;
}

export async function addIpAddress(ctx: Ctx, userId: number, body: z.output<typeof AddIpRequest>): Promise<IpAddress> {
  const ip = monitorableAddress(body.ipAddress).toString();
  const associatedDomains = await checkedAssociatedDomains(ctx, userId, body.type, body.associatedDomains);
  const row = await ctx.db.transaction(async (tx) => {
    await refuseBeyondLimit(tx, userId, 1);
    const [inserted] = await insertIps(tx, userId, [
      { ipAddress: ip, label: body.label || null, type: body.type, associatedDomains },
    ]);
    if (!inserted) throw new AppError('conflict', `${ip} is already monitored`);
    return inserted;
  });
  await requestReputationCheck(ctx.db, ctx.jobs, userId, { newTargets: true });
  return toIpAddress(row);
}

/** Every address of the block, labelled '{label} #1'... in address order, all or nothing. */
export async function bulkImportIpAddresses(
  ctx: Ctx,
  userId: number,
  body: z.output<typeof BulkImportRequest>,
): Promise<number> {
  const addresses = expandBlock(parseCidrBlock(body.cidrBlock));
  const associatedDomains = await checkedAssociatedDomains(ctx, userId, body.type, body.associatedDomains);
  const rows = addresses.map((ipAddress, i) => ({
    ipAddress,
    label: body.label ? `${body.label} #${i + 1}` : null,
    type: body.type,
    associatedDomains,
  }));
  const imported = await ctx.db.transaction(async (tx) => {
    await refuseBeyondLimit(tx, userId, rows.length);
    const inserted = await insertIps(tx, userId, rows);
    if (inserted.length < rows.length) {
      // Throwing rolls the transaction back: the addresses inserted above go with it.
      const added = new Set(inserted.map((r) => r.ipAddress));
      throw duplicatesError(addresses.filter((ip) => !added.has(ip)));
    }
    return inserted.length;
  });
  await requestReputationCheck(ctx.db, ctx.jobs, userId, { newTargets: true });
  return imported;
}

/** Every IP is asked of every list on each run: an account monitors at most MAX_MONITORED_IPS. */
async function refuseBeyondLimit(tx: Executor, userId: number, adding: number): Promise<void> {
  const monitored = await countUserIpsLocked(tx, userId);
  if (monitored + adding > MAX_MONITORED_IPS) {
    throw new AppError(
      'validation_error',
      `An account can monitor at most ${MAX_MONITORED_IPS.toLocaleString('en-US')} IP addresses; you monitor ${monitored.toLocaleString('en-US')}, and this would add ${adding.toLocaleString('en-US')}: nothing was added`,
    );
  }
}

function duplicatesError(monitored: string[]): AppError {
  const n = monitored.length;
  const named = monitored.slice(0, NAMED_DUPLICATES).join(', ') + (n > NAMED_DUPLICATES ? ', ...' : '');
  const subject = n === 1 ? `${named} is` : `${n} of these addresses are`;
  return new AppError('conflict', `${subject} already monitored${n === 1 ? '' : ` (${named})`}: nothing was imported`);
}

export async function deleteIpAddress(ctx: Ctx, userId: number, id: number): Promise<void> {
  if (!(await deleteUserIp(ctx.db, userId, id))) throw new AppError('not_found', IP_NOT_FOUND);
}
