// Raw HTTP/1.1 over a socket, for what fetch cannot send or observe: malformed request lines,
// headers without a body, and whether the server closes the connection.
import { connect, type Socket } from 'node:net';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/** Opens a socket to `baseUrl` (http://host:port). */
export function openSocket(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `request` and collects one reply, waiting up to `closeWaitMs` for the server to close. */
export async function rawRequest(baseUrl: string, request: string | Buffer, closeWaitMs = 2_000): Promise<RawReply> {
  const socket = await openSocket(baseUrl);
  return readReply(socket, request, closeWaitMs);
}

export function readReply(socket: Socket, request: string | Buffer, closeWaitMs = 2_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    let closed = false;
    const done = () => {
      const text = data.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete reply: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4), closed });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, closeWaitMs);
    socket.on('data', (chunk) => (data = Buffer.concat([data, chunk])));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      done();
    });
    socket.write(request);
  });
}
