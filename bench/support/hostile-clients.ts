/**
 * Hostile clients for the soak (bench/soak.bench.ts), each a raw TCP conversation with the service that ends the
 * way an attacker or a broken network would: a reset at every stage of a request and of a WebSocket upgrade, a
 * reader that stops reading, a header sent a byte at a time, random bodies and URLs. Each call resolves with a
 * label of what happened (the status seen, or how it ended), so the soak can tally what the service answered; a
 * 5xx among them is reported as such.
 */
import { connect, type Socket } from "node:net";

export interface Target {
  readonly port: number;
  readonly premiumKey: string;
  readonly freeKey: string;
  /** A Premium key allowed one request a minute: its handshakes are answered 429. */
  readonly spentKey: string;
  readonly wallet: string;
}

export type Attack = (target: Target, random: () => number) => Promise<string>;

const LIVE_WS = "/api/public/v1/live/ws";
const WS_HEADERS = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;

/** The status of the first answer in `bytes`, or `none`. */
function statusOf(bytes: Buffer): string {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(bytes.subarray(0, 16).toString("latin1"));
  return match ? match[1]! : "none";
}

interface Conversation {
  /** Bytes to send once connected (written in one go unless `dribbleMs`). */
  send: Buffer | string;
  /** Send one byte per this many ms instead (a slowloris). */
  dribbleMs?: number;
  /** How the client leaves: at once after sending, after reading its first bytes, or after the server closes. */
  leave: "reset at once" | "reset after a partial read" | "close after a partial read" | "read to the end";
  /** Do not read at all for this long before leaving (a slow reader: the socket is paused). */
  stallMs?: number;
  /** Give up (reset) after this long whatever happened. */
  deadlineMs?: number;
}

/** One conversation; resolves with the status seen and how it ended, e.g. `101 reset`, `none reset`, `408 closed`. */
function converse(port: number, c: Conversation): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let first: Buffer | null = null;
    let settled = false;
    const done = (how: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(dribbler);
      resolve(`${first ? statusOf(first) : "none"} ${how}`);
    };
    const deadline = setTimeout(() => {
      socket.resetAndDestroy();
      done("deadline");
    }, c.deadlineMs ?? 30_000);
    let dribbler: NodeJS.Timeout | undefined;
    socket.on("error", () => done("error"));
    socket.on("close", () => done("closed"));
    socket.once("connect", () => {
      const bytes = Buffer.from(c.send);
      if (c.dribbleMs) {
        let at = 0;
        dribbler = setInterval(() => {
          if (at < bytes.length && !socket.destroyed) socket.write(bytes.subarray(at, ++at));
        }, c.dribbleMs);
      } else socket.write(bytes);
      if (c.leave === "reset at once") {
        socket.resetAndDestroy();
        return done("reset");
      }
      if (c.stallMs) {
        socket.pause();
        setTimeout(() => {
          socket.resetAndDestroy();
          done("stalled");
        }, c.stallMs);
      }
    });
    socket.on("data", (chunk: Buffer) => {
      first ??= chunk;
      if (c.leave === "reset after a partial read") {
        socket.resetAndDestroy();
        done("reset");
      } else if (c.leave === "close after a partial read") {
        socket.end();
        socket.destroySoon();
      }
    });
  });
}

const get = (path: string, headers = "") =>
  `GET ${path} HTTP/1.1\r\nHost: pelagic.soak\r\nConnection: close\r\n${headers}\r\n`;

/** A request cut at every stage: before a byte, in the request line, in the headers, in the body, before and in the answer. */
export const resetRequests: Attack = (t, random) => {
  const whole = get(`/api/v2/wallet/${t.wallet}`);
  const post = `POST /api/public/v1/wallets/overview HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.premiumKey}\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n{"wallets": ["${t.wallet}"`;
  const stage = pick(
    [
      { send: "", leave: "reset at once" },
      { send: "GET /api/v2/wal", leave: "reset at once" },
      { send: whole.slice(0, -2), leave: "reset at once" },
      { send: post, leave: "reset at once" },
      { send: whole, leave: "reset at once" },
      { send: get("/api/openapi.json"), leave: "reset after a partial read" },
      { send: get(`/api/v2/wallet/${t.wallet}/positions`), leave: "close after a partial read" },
    ] as const,
    random,
  );
  return converse(t.port, stage);
};

/** Every outcome of an upgrade (404, 401, 403, 429, 101) met with every way of leaving, the handshake cut included. */
export const resetUpgrades: Attack = (t, random) => {
  const handshake = pick(
    [
      `GET /x HTTP/1.1\r\nHost: x\r\n${WS_HEADERS}Sec-WebSocket-Version: 13\r\n\r\n`,
      `GET ${LIVE_WS} HTTP/1.1\r\nHost: x\r\n${WS_HEADERS}Sec-WebSocket-Version: 13\r\n\r\n`,
      `GET ${LIVE_WS} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.freeKey}\r\n${WS_HEADERS}Sec-WebSocket-Version: 13\r\n\r\n`,
      `GET ${LIVE_WS} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.spentKey}\r\n${WS_HEADERS}Sec-WebSocket-Version: 13\r\n\r\n`,
      `GET ${LIVE_WS} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.premiumKey}\r\n${WS_HEADERS}Sec-WebSocket-Version: 13\r\n\r\n`,
    ],
    random,
  );
  const leave = pick(["reset at once", "reset after a partial read", "close after a partial read"] as const, random);
  const cut = random() < 0.2;
  return converse(t.port, {
    send: cut ? handshake.slice(0, Math.floor(handshake.length / 2)) : handshake,
    leave: cut ? "reset at once" : leave,
  });
};

/** Readers that stop reading (a stream, a large answer) and a header sent a byte at a time. */
export const slowReaders: Attack = (t, random) => {
  const kind = pick(["stream", "large answer", "slowloris"] as const, random);
  if (kind === "stream")
    return converse(t.port, {
      send: get("/api/public/v1/live/trades", `X-API-Key: ${t.premiumKey}\r\n`),
      leave: "read to the end",
      stallMs: 20_000,
    });
  if (kind === "large answer")
    return converse(t.port, { send: get("/api/openapi.json"), leave: "read to the end", stallMs: 15_000 });
  return converse(t.port, {
    send: get("/api/v1/health"),
    leave: "read to the end",
    dribbleMs: 500,
    deadlineMs: 20_000,
  });
};

function randomBytes(random: () => number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

/** POSTs with random bodies: bytes, broken and deep JSON, oversized, under the wrong type, shorter than announced. */
export const randomBodies: Attack = (t, random) => {
  const bodies: Array<[string, Buffer]> = [
    ["application/json", randomBytes(random, 1 + Math.floor(random() * 2_000))],
    ["application/json", Buffer.from(`{"wallets": [${"[".repeat(5_000)}`)],
    ["application/json", Buffer.from(JSON.stringify({ wallets: Array(60).fill(t.wallet) }))],
    ["application/json", Buffer.alloc(40_000, "a")],
    ["text/plain", randomBytes(random, 300)],
    ["application/json", Buffer.from(`{"wallets": ["${t.wallet}", null, 1e400, "\\u0000"]}`)],
  ];
  const [type, body] = pick(bodies, random);
  const announced = random() < 0.2 ? body.length + 100 : body.length;
  const head = `POST /api/public/v1/wallets/${pick(["overview", "positions"], random)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-API-Key: ${t.premiumKey}\r\nContent-Type: ${type}\r\nContent-Length: ${announced}\r\n\r\n`;
  return converse(t.port, {
    send: Buffer.concat([Buffer.from(head), body]),
    leave: "read to the end",
    deadlineMs: 15_000,
  });
};

/** URLs no client should send: bad escapes, raw bytes, a thousand unknown parameters, very long paths. */
export const randomUrls: Attack = (t, random) => {
  const targets = [
    "/api/v2/market/%",
    `/api/v2/wallet/${t.wallet}%zz/positions`,
    `/api/v2/wallet/${"a".repeat(5_000)}`,
    `/api/v2/markets/search?${Array.from({ length: 1_000 }, (_, i) => `p${i}=1`).join("&")}`,
    "/api/v2/whales/leaderboard?limit=1e309&offset=-1",
    `/api/v2/wallet/${t.wallet}?view=%00`,
  ];
  const path =
    random() < 0.3 ? Buffer.concat([Buffer.from("/api/v2/"), randomBytes(random, 20)]) : pick(targets, random);
  const request = Buffer.concat([
    Buffer.from("GET "),
    Buffer.from(path),
    Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
  ]);
  return converse(t.port, { send: request, leave: "read to the end", deadlineMs: 15_000 });
};

/** What a well-behaved client asks, to see the service still answering in between. */
export const ordinaryReads: Attack = (t, random) =>
  converse(t.port, {
    send: get(
      pick(
        [
          "/api/v1/health",
          `/api/v2/wallet/${t.wallet}`,
          "/api/v2/whales/leaderboard?limit=20",
          "/api/v2/markets/search?q=will&limit=5",
        ],
        random,
      ),
    ),
    leave: "read to the end",
    deadlineMs: 15_000,
  });

export const ATTACKS: Readonly<Record<string, Attack>> = {
  "reset requests": resetRequests,
  "reset upgrades": resetUpgrades,
  "slow readers": slowReaders,
  "random bodies": randomBodies,
  "random urls": randomUrls,
  "ordinary reads": ordinaryReads,
};
