import type { ImapFlow, ListResponse } from 'imapflow';
import {
  closeImap,
  describeImapError,
  ImapError,
  openImap,
  type ImapConnectionConfig,
  type ImapTuning,
} from '../../platform/imap/imap-client';
import { GMAIL_TABS, gmailTab, gmailTabQuery } from './gmail-tab';

export interface SeedMailboxConfig extends ImapConnectionConfig {
  inboxFolder: string;
  /** Searched in this order after the inbox; those that do not exist are skipped. */
  spamFolders: string[];
  /** Delete a found test message (UID EXPUNGE), so the seed does not fill up. */
  deleteFound: boolean;
}

export interface SeedFind {
  placement: 'inbox' | 'spam';
  folder: string;
  /** Gmail's category tab (Promotions, Social, Updates, Forums) of a message found in the inbox. */
  tab: string | null;
}

interface FolderToSearch {
  path: string;
  placement: SeedFind['placement'];
}

/**
 * Where each tag (a subject tag such as [TEST-12]) sits in one seed mailbox, over one connection:
 * the inbox first, then the spam folders that exist; the first folder holding a tag wins. Tags not
 * found are absent from the map. Connection, login and folder problems throw an ImapError.
 */
export async function searchSeedMailbox(
  config: SeedMailboxConfig,
  tags: string[],
  tuning: ImapTuning = {},
): Promise<Map<string, SeedFind>> {
  const found = new Map<string, SeedFind>();
  const wanted = [...new Set(tags)];
  if (wanted.length === 0) return found;
  const client = await openImap(config, tuning);
  try {
    for (const folder of await foldersToSearch(client, config)) {
      const remaining = wanted.filter((tag) => !found.has(tag));
      if (remaining.length === 0) break;
      for (const [tag, find] of await searchFolder(client, folder, remaining, config.deleteFound)) found.set(tag, find);
    }
    return found;
  } catch (err) {
    throw describeImapError(err, config);
  } finally {
    await closeImap(client);
  }
}

/** The inbox, then the configured spam folders that exist, then any other folder the server marks \Junk. */
async function foldersToSearch(client: ImapFlow, config: SeedMailboxConfig): Promise<FolderToSearch[]> {
  const listed = (await client.list()).filter((f) => !f.flags.has('\\Noselect') && !f.flags.has('\\NonExistent'));
  const inbox = findFolder(listed, config.inboxFolder);
  if (!inbox)
    throw new ImapError(
      `IMAP folder "${config.inboxFolder}" does not exist for ${config.user} at ${config.host}:${config.port}`,
      'folder',
    );
  const spam = [...config.spamFolders.map((name) => findFolder(listed, name)), ...listed.filter(isServerMarkedJunk)];
  const seen = new Set([inbox.path]);
  const folders: FolderToSearch[] = [{ path: inbox.path, placement: 'inbox' }];
  for (const folder of spam) {
    if (!folder || seen.has(folder.path)) continue;
    seen.add(folder.path);
    folders.push({ path: folder.path, placement: 'spam' });
  }
  return folders;
}

/** SPECIAL-USE \Junk as the server says it; imapflow also guesses it from names, which the operator's list covers. */
function isServerMarkedJunk(folder: ListResponse): boolean {
  return folder.specialUse === '\\Junk' && folder.specialUseSource === 'extension';
}

/** Folder names are case-sensitive, except INBOX; an exact match wins over one differing in case. */
function findFolder(listed: ListResponse[], name: string): ListResponse | undefined {
  if (name.toUpperCase() === 'INBOX') return listed.find((f) => f.path.toUpperCase() === 'INBOX');
  return listed.find((f) => f.path === name) ?? listed.find((f) => f.path.toLowerCase() === name.toLowerCase());
}

async function searchFolder(
  client: ImapFlow,
  folder: FolderToSearch,
  tags: string[],
  deleteFound: boolean,
): Promise<Map<string, SeedFind>> {
  const found = new Map<string, SeedFind>();
  // EXAMINE when nothing is deleted: reading must not change the seed (\Recent, \Seen).
  const lock = await client
    .getMailboxLock(folder.path, { readOnly: !deleteFound })
    .catch((err: { responseStatus?: string; responseText?: string }) => {
      if (err.responseStatus !== 'NO') throw err; // a broken connection, not a refused folder
      throw new ImapError(`IMAP folder "${folder.path}" cannot be opened: ${err.responseText ?? 'refused'}`, 'folder');
    });
  try {
    // SUBJECT is a case-insensitive substring match; all tags in one SEARCH (OR), then each hit's
    // subject tells which tag it carries.
    const uids = (await client.search({ or: tags.map((subject) => ({ subject })) }, { uid: true })) || [];
    if (uids.length === 0) return found;
    const gmail = client.capabilities.has('X-GM-EXT-1') && folder.placement === 'inbox';
    const messages = await client.fetchAll(uids, { uid: true, envelope: true, labels: gmail }, { uid: true });
    messages.sort((a, b) => a.uid - b.uid);

    const tagUids = new Map<string, number>();
    const matchedUids: number[] = [];
    for (const message of messages) {
      const subject = (message.envelope?.subject ?? '').toLowerCase();
      const carried = tags.filter((tag) => subject.includes(tag.toLowerCase()));
      if (carried.length) matchedUids.push(message.uid);
      for (const tag of carried) if (!tagUids.has(tag)) tagUids.set(tag, message.uid);
    }
    const tabs = gmail ? await gmailTabs(client, messages, [...tagUids.values()]) : new Map<number, string>();
    for (const [tag, uid] of tagUids)
      found.set(tag, { placement: folder.placement, folder: folder.path, tab: tabs.get(uid) ?? null });

    // Housekeeping only: a failed delete leaves the message, and the result stands.
    if (deleteFound && matchedUids.length) await client.messageDelete(matchedUids.join(','), { uid: true });
    return found;
  } finally {
    lock.release();
  }
}

/** Each message's tab: from its X-GM-LABELS when they name one, else from X-GM-RAW category searches. */
async function gmailTabs(
  client: ImapFlow,
  messages: { uid: number; labels?: Set<string> }[],
  uids: number[],
): Promise<Map<number, string>> {
  const tabs = new Map<number, string>();
  for (const message of messages) {
    const tab = gmailTab(message.labels);
    if (tab && uids.includes(message.uid)) tabs.set(message.uid, tab);
  }
  let unknown = uids.filter((uid) => !tabs.has(uid));
  for (const tab of GMAIL_TABS) {
    if (unknown.length === 0) break;
    const inTab = (await client.search({ uid: unknown.join(','), gmraw: gmailTabQuery[tab] }, { uid: true })) || [];
    for (const uid of inTab) if (unknown.includes(uid)) tabs.set(uid, tab);
    unknown = unknown.filter((uid) => !tabs.has(uid));
  }
  return tabs;
}
