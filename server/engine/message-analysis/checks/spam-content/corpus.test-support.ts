import { readFileSync } from 'node:fs';

const corpus = new URL('./corpus/', import.meta.url);

/** A corpus message ('spam/…' or 'ham/…') with CRLF line ends, as it travels over SMTP (the files keep LF). */
export function corpusMessage(path: string): Buffer {
  return Buffer.from(readFileSync(new URL(path, corpus), 'utf8').replace(/\r?\n/g, '\r\n'));
}
