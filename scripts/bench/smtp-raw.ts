// A bare SMTP client for the bench: no library between the bench and the wire, so what is timed is the server.
import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * A bare SMTP client (EHLO, MAIL, RCPT, DATA, the chunks as they are, QUIT): the chunks must be CRLF lines, none
 * starting with a dot, ending with CRLF. Answers the reply to the data. `localAddress`: the loopback address to
 * send from (the listener counts networks: 127.0.1.1 is another /24 than 127.0.0.1). `ready`: the message is
 * sent once it settles, the session being open and past DATA already (a sender whose mail must arrive at a
 * given moment, whatever the greeting delay).
 */
export async function sendRaw(
  port: number,
  envelope: { helo: string; from: string; to: string },
  chunks: Buffer[],
  options: { localAddress?: string; ready?: Promise<unknown> } = {},
): Promise<string> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
  const replies: string[] = [];
  let lines: string[] = [];
  let buffered = '';
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  socket.on('data', (data: Buffer) => {
    buffered += data.toString('latin1');
    for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      lines.push(line);
      // The last line of a reply has a space (or nothing) after its code; the others a dash.
      if (/^\d{3}(?: |$)/.test(line)) {
        replies.push(lines.join('\n'));
        lines = [];
      }
    }
    wake?.();
  });
  socket.on('error', (error) => ((failure = error), wake?.()));
  socket.on('close', () => ((failure ??= new Error('the SMTP server closed the connection')), wake?.()));
  const reply = async (): Promise<string> => {
    while (replies.length === 0) {
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return replies.shift()!;
  };
  const command = async (line: string | null, code: string): Promise<string> => {
    if (line !== null) socket.write(`${line}\r\n`);
    const answer = await reply();
    if (!answer.startsWith(code)) throw new Error(`SMTP ${line ?? 'greeting'}: ${answer}`);
    return answer;
  };
  try {
    await command(null, '220');
    await command(`EHLO ${envelope.helo}`, '250');
    await command(`MAIL FROM:<${envelope.from}>`, '250');
    await command(`RCPT TO:<${envelope.to}>`, '250');
    await command('DATA', '354');
    await options.ready;
    for (const chunk of chunks) if (!socket.write(chunk)) await once(socket, 'drain');
    const accepted = await command('.', '250');
    await command('QUIT', '221').catch(() => undefined);
    return accepted;
  } finally {
    socket.destroy();
  }
}
