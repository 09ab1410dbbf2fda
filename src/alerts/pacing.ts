/**
 * Each chat platform's documented limits, held across every process that sends (the platform's rate limiter,
 * `pace`: Redis when configured, memory in one process): Telegram one message a second per chat and 30 a second per
 * bot, Discord 5 requests per 2 seconds per webhook (one per 400 ms), Slack one message a second per incoming webhook. Keyed by a
 * digest of the credential, so two destinations naming one chat or webhook share its limit. A webhook is not paced.
 */
import { createHash } from "node:crypto";
import type { Clock } from "../platform/clock.js";
import type { RateLimiter } from "../platform/rate-limiter.js";
import type { DestinationSecrets } from "./destinations.js";
import type { DestinationKind } from "./tables.js";

interface Pace {
  readonly bucket: string;
  readonly limit: number;
  readonly windowMs: number;
}

const digest = (text: string | undefined) =>
  createHash("sha256")
    .update(text ?? "")
    .digest("base64url")
    .slice(0, 16);

/**
 * Each window is held a fifth longer than the platform's: a place is taken when the send starts, and the request
 * reaches the platform later by as much as the process is busy (seen: 170 ms on a loaded machine), more for one send
 * than for the next.
 */
const MARGIN = 1.2;

function paceOf(bucket: string, limit: number, platformWindowMs: number): Pace {
  return { bucket, limit, windowMs: Math.round(platformWindowMs * MARGIN) };
}

export function pacesOf(kind: DestinationKind, secrets: DestinationSecrets): Pace[] {
  switch (kind) {
    case "telegram": {
      const bot = digest(secrets.bot_token);
      return [
        paceOf(`alerts:telegram-chat:${bot}:${secrets.chat_id}`, 1, 1_000),
        paceOf(`alerts:telegram-bot:${bot}`, 30, 1_000),
      ];
    }
    case "discord":
      // 5 per 2 s, spread: a burst of five in flight would be sent again, all five, by a process killed mid-send.
      return [paceOf(`alerts:discord:${digest(secrets.url)}`, 1, 400)];
    case "slack":
      return [paceOf(`alerts:slack:${digest(secrets.url)}`, 1, 1_000)];
    case "webhook":
      return [];
  }
}

/**
 * Takes a place in each of the destination's windows, the narrowest first; returns 0 (send now) or in how many ms
 * to try again. A chat's place taken before its bot's window refused is spent (at worst one second of that chat).
 */
export async function takeTurn(limiter: RateLimiter, paces: readonly Pace[]): Promise<number> {
  for (const pace of paces) {
    const waitMs = await limiter.pace(pace.bucket, pace.limit, pace.windowMs);
    if (waitMs > 0) return waitMs;
  }
  return 0;
}

/** How many held-back destinations a claim leaves out by name; beyond them, a claim's refusal defers one again. */
const LISTED = 500;

/**
 * The destinations a process holds back until their turn (epoch ms): the store keeps a retry's time in seconds, so
 * a delivery deferred to its turn's second is left out of this process's claims until the millisecond, and the
 * process looks again then (`wake`).
 */
export class HeldBack {
  private readonly turns = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private timerAtMs = 0;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  until(destinationId: number, turnMs: number): void {
    this.turns.set(destinationId, turnMs);
    if (this.timer && this.timerAtMs <= turnMs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAtMs = turnMs;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.wake();
      },
      Math.max(0, turnMs - this.clock.nowMs()),
    );
    this.timer.unref();
  }

  /** In how many ms the destination's turn comes in this process; 0 when it is not held back. */
  waitOf(destinationId: number): number {
    return Math.max(0, (this.turns.get(destinationId) ?? 0) - this.clock.nowMs());
  }

  /** The destinations still held back, the soonest turns first (at most LISTED). */
  now(): number[] {
    const nowMs = this.clock.nowMs();
    for (const [id, turnMs] of this.turns) if (turnMs <= nowMs) this.turns.delete(id);
    return [...this.turns.entries()]
      .sort((a, b) => a[1] - b[1])
      .slice(0, LISTED)
      .map(([id]) => id);
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.turns.clear();
  }
}
