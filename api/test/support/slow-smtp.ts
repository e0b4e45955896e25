/**
 * A mail server for tests that speaks just enough SMTP for nodemailer and takes its time to accept
 * each message (`holdMs` after the message's last line), as a slow real one does. It keeps what it
 * accepted: the envelope's recipients and the message, per message.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  to: string[];
  data: string;
}

export interface SlowSmtp {
  url: string;
  received: ReceivedMail[];
  /** Messages whose last line arrived and are not yet accepted. */
  holding(): number;
  close(): Promise<void>;
}

/**
 * `refuse`: the server's answer to a message it refuses (a spam filter's "554 … <the line it
 * disliked>"), or null to accept it.
 */
export async function startSlowSmtp(
  holdMs: number,
  refuse: (data: string) => string | null = () => null,
): Promise<SlowSmtp> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  let held = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let to: string[] = [];
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    reply('220 slow.example ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          held++;
          const mail = { to, data };
          to = [];
          setTimeout(() => {
            held--;
            const refusal = refuse(data);
            if (refusal) return reply(refusal);
            received.push(mail);
            reply('250 2.0.0 accepted');
          }, holdMs);
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 slow.example');
        else if (verb === 'MAIL') reply('250 2.1.0 ok');
        else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else reply('502 not implemented');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    holding: () => held,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
