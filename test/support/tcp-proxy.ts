// A TCP proxy in front of a shared service (PostgreSQL, Redis), so a test can take that service away
// from one server without touching the service others use: `cut()` drops every connection and
// refuses new ones, `block()` accepts connections and forwards nothing (a service that hangs),
// `restore()` forwards again on the same port.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  block(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let blocked = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const onConnection = (client: Socket) => {
    track(client);
    if (blocked) return; // accepted, never answered
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };
  const listenOn = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer(onConnection);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | undefined = await listenOn(0);
  const port = (server.address() as { port: number }).port;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const stop = async () => {
    const s = server;
    server = undefined;
    dropAll();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    block() {
      blocked = true;
      for (const socket of sockets) socket.unpipe();
    },
    async restore() {
      blocked = false;
      dropAll();
      server ??= await listenOn(port);
    },
    close: stop,
  };
}
