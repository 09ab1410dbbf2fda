/** A webhook receiver on loopback (the demo's, the tests' and the bench's): records each request, answers as told. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly path: string;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Never answer (to test the timeout). */
  readonly hang?: boolean;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** Answers for the next requests, in order; once used up, 200. */
  answers: Answer[];
  onRequest?: (request: Received) => void;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hook"): Promise<Receiver> {
  const hanging = new Set<() => void>();
  const receiver: Omit<Receiver, "url" | "port" | "close"> = { received: [], answers: [] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const received = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: request.url ?? "",
      };
      receiver.received.push(received);
      receiver.onRequest?.(received);
      const answer = receiver.answers.shift() ?? { status: 200 };
      if (answer.hang) {
        hanging.add(() => response.destroy());
        return;
      }
      response.writeHead(answer.status, answer.headers).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
