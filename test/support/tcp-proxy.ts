/** A TCP proxy in front of a server, that a test can cut: the upstream "dies" without touching the shared server. */
import { createServer, connect, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** When each connection arrived while cut (ms, performance clock). */
  readonly refused: number[];
  /** Drops every connection and, until `restore`, accepts new ones only to close them at once. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const refused: number[] = [];
  let down = false;
  const server = createServer((client) => {
    if (down) {
      refused.push(performance.now());
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        open.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    refused,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
