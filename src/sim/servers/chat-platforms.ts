/**
 * Loopback stand-ins of the places alerts go, speaking their real request shapes: a Standard Webhooks consumer
 * (checks webhook-id, webhook-timestamp and the v1 HMAC signature with the secret it is given), the Telegram Bot
 * API (`POST /bot<token>/sendMessage` with chat_id and text, answering `{ok, result}`), a Discord channel webhook
 * (`POST /api/webhooks/<id>/<token>` with embeds, answering 204) and a Slack incoming webhook
 * (`POST /services/<T>/<B>/<secret>` with blocks, answering `ok`). Each records what it received, and can be told
 * to answer an error for a while (a receiver that is down) or to answer gone. The alerts' tests, bench and the demo
 * point ALERTS_TELEGRAM_API_URL, ALERTS_DISCORD_WEBHOOK_PREFIX and ALERTS_SLACK_WEBHOOK_PREFIX at them.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Platform = "webhook" | "telegram" | "discord" | "slack";

export interface Received {
  readonly platform: Platform;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
  /** Epoch ms of arrival. */
  readonly atMs: number;
  /** webhook: whether the signature checked out with the secret the receiver holds. */
  readonly signed?: boolean;
}

export interface ChatPlatforms {
  /** The root each platform is reached at, e.g. `http://127.0.0.1:PORT/discord/api/webhooks/`. */
  readonly urls: {
    readonly webhook: string;
    readonly telegramApi: string;
    readonly discordPrefix: string;
    readonly slackPrefix: string;
  };
  readonly received: Received[];
  /** Called with each accepted request (the demo prints it). */
  onReceived: ((received: Received) => void) | null;
  /** The Standard Webhooks secret the webhook consumer checks signatures with. */
  setWebhookSecret(secret: string): void;
  /** Answers `status` (with the header `retryAfter`, seconds, and `body`, if given) to the platform's next `times` requests. */
  failNext(platform: Platform, times: number, status: number, retryAfter?: number, body?: string): void;
  /** Answers the platform's every request with its "gone" (410, 403 for Telegram, 404 for Discord and Slack). */
  setGone(platform: Platform, gone: boolean): void;
  /** Resolves once `count` requests of `platform` (accepted ones) have arrived. */
  waitFor(platform: Platform, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const GONE: Record<Platform, number> = { webhook: 410, telegram: 403, discord: 404, slack: 404 };

function verifySignature(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signature = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signature !== "string") return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"));
  return signature.split(" ").some((part) => {
    const given = Buffer.from(part.replace(/^v1,/, ""));
    return part.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function platformOf(path: string): Platform | null {
  if (path.startsWith("/webhook")) return "webhook";
  if (/^\/telegram\/bot[^/]+\/sendMessage$/.test(path)) return "telegram";
  if (path.startsWith("/discord/api/webhooks/")) return "discord";
  if (path.startsWith("/slack/services/")) return "slack";
  return null;
}

export async function startChatPlatforms(): Promise<ChatPlatforms> {
  const received: Received[] = [];
  const failures = new Map<Platform, { times: number; status: number; retryAfter?: number; body?: string }>();
  const gone = new Set<Platform>();
  const waiters: Array<() => void> = [];
  let secret = "";

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      const platform = platformOf(path);
      if (!platform || request.method !== "POST") {
        response.writeHead(404).end();
        return;
      }
      if (gone.has(platform)) {
        response.writeHead(GONE[platform], { "content-type": "application/json" }).end('{"message":"gone"}');
        return;
      }
      const failure = failures.get(platform);
      if (failure && failure.times > 0) {
        failure.times--;
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (failure.retryAfter !== undefined) headers["retry-after"] = String(failure.retryAfter);
        response.writeHead(failure.status, headers).end(failure.body ?? '{"message":"not now"}');
        return;
      }
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        response.writeHead(400).end();
        return;
      }
      const signed = platform === "webhook" ? verifySignature(secret, request.headers, text) : undefined;
      const got: Received = { platform, path, headers: request.headers, body, atMs: Date.now(), signed };
      received.push(got);
      platforms.onReceived?.(got);
      for (const wake of waiters.splice(0)) wake();
      if (platform === "telegram") {
        const message = body as { chat_id?: unknown; text?: unknown };
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            ok: true,
            result: { message_id: received.length, chat: { id: message.chat_id }, text: message.text },
          }),
        );
      } else if (platform === "discord") response.writeHead(204).end();
      else if (platform === "slack") response.writeHead(200, { "content-type": "text/plain" }).end("ok");
      else response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const platforms: ChatPlatforms = {
    urls: {
      webhook: `${root}/webhook`,
      telegramApi: `${root}/telegram`,
      discordPrefix: `${root}/discord/api/webhooks/`,
      slackPrefix: `${root}/slack/services/`,
    },
    received,
    onReceived: null,
    setWebhookSecret(value) {
      secret = value;
    },
    failNext(platform, times, status, retryAfter, body) {
      failures.set(platform, { times, status, retryAfter, body });
    },
    setGone(platform, value) {
      if (value) gone.add(platform);
      else gone.delete(platform);
    },
    async waitFor(platform, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((r) => r.platform === platform);
        if (got.length >= count) return got;
        if (Date.now() > deadline)
          throw new Error(`${platform}: ${got.length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return platforms;
}
