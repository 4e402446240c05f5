import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait-until';

/** A real SMTP server on loopback that keeps what it receives; `failNext` refuses messages. */
export interface SmtpSink {
  url: string;
  messages: ParsedMail[];
  failNext: number;
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    messages: [],
    failNext: 0,
    async waitFor(count, timeoutMs = 15_000) {
      await waitUntil(() => sink.messages.length, `${count} messages at the SMTP sink`, {
        timeoutMs,
        until: (received) => received >= count,
      });
      return sink.messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (sink.failNext > 0) {
          sink.failNext--;
          const err = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
          return callback(err);
        }
        sink.messages.push(await simpleParser(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return sink;
}
