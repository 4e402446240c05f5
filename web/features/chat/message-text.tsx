import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { isAppPath } from '../../lib/paths';

type Block = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

const BULLET = /^\s*[-•*]\s+/;

/** Splits a plain-text reply into paragraphs and '- ' bullet lists. Never parses HTML. */
export function toBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (BULLET.test(line)) {
      flush();
      const item = line.replace(BULLET, '');
      const last = blocks[blocks.length - 1];
      if (last?.kind === 'list') last.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** A site path written in running text ("/register;", "(/domains)"), not "ESP/MTA", "$49/month" or a URL's path. */
const SITE_PATH = /(?<![\w./:<>-])\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*/g;

/** Text with the paths of the app's screens as links; any other path stays text. */
export function withLinks(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(SITE_PATH)) {
    const path = match[0];
    if (!isAppPath(path)) continue;
    nodes.push(text.slice(last, match.index));
    nodes.push(
      <Link key={`${match.index}-${path}`} to={path} className="font-medium text-primary underline underline-offset-2">
        {path}
      </Link>,
    );
    last = match.index + path.length;
  }
  nodes.push(text.slice(last));
  return nodes.map((node, index) => (typeof node === 'string' ? <Fragment key={index}>{node}</Fragment> : node));
}

/**
 * A chat message as React text nodes: line breaks kept, bullet lines as a list, no HTML injection.
 * Paths of the app's screens become links; any other path stays text.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <div className="space-y-2">
      {toBlocks(text).map((block, index) =>
        block.kind === 'list' ? (
          <ul key={index} className="list-disc space-y-1 pl-5">
            {block.items.map((item, i) => (
              <li key={i}>{withLinks(item)}</li>
            ))}
          </ul>
        ) : (
          <p key={index} className="whitespace-pre-wrap break-words">
            {withLinks(block.text)}
          </p>
        ),
      )}
    </div>
  );
}
