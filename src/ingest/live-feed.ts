/**
 * The live trade relay: every trade of the RTDS `activity/trades` feed is published on the pub/sub channel
 * `trades` (the SSE relay fans it out). The RTDS client reconnects by itself; whenever it is not up, /trades is
 * polled instead (newest first, back to the newest trade already published), and a trade seen by both paths
 * around a switch is published once. It stores nothing: fills are stored by the fills pipeline. The source's
 * checkpoint tells health how fresh the relay is and counts the invalid frames it skipped.
 */
import type { PubSub } from "../platform/pubsub.js";
import { readCheckpoint, recordSourceError } from "../store/checkpoints.js";
import {
  fillFromDataTrade,
  fillFromRtdsTrade,
  isProtocolAddress,
  walletProfileOf,
  type ApiFill,
  type DataApiClient,
  type DataTradeRow,
  type RtdsClient,
  type RtdsStatus,
  type WalletProfile,
  type Sleep,
} from "../venue/index.js";
import type { IngestContext } from "./context.js";
import { apiFillKey } from "./data-api-trades.js";
import { LIVE_TRADES_CHANNEL, liveTradeMessage, type LiveTradeMessage } from "./live-message.js";
import { SOURCES } from "./sources.js";

export interface LiveFeedOptions {
  /** Pause between /trades polls while RTDS is down. */
  readonly pollMs: number;
  /** Rows per poll page, and pages at most per poll. */
  readonly pollPageSize?: number;
  readonly pollMaxPages?: number;
  /** Checkpoint writes at most this often. */
  readonly checkpointEveryMs?: number;
  readonly sleep: Sleep;
}

const REMEMBERED_KEYS = 50_000;
/** A restart within this many seconds of the last published trade resumes from it. */
const RECENT_SECONDS = 300;

export class LiveFeed {
  readonly source = SOURCES.live;
  private readonly published = new Set<string>();
  private newestTs: number | null = null;
  private readonly controller = new AbortController();
  private polling: Promise<void> | null = null;
  private lastCheckpointMs = 0;
  private readonly stops: (() => void)[] = [];

  constructor(
    private readonly ctx: IngestContext,
    private readonly rtds: RtdsClient,
    private readonly dataApi: DataApiClient,
    private readonly pubsub: PubSub,
    private readonly options: LiveFeedOptions,
  ) {}

  /** Publishes from now on. */
  start(): void {
    this.stops.push(
      this.rtds.onMessage((message) => {
        if (message.type !== "trades") return;
        this.publishTrade(
          () => fillFromRtdsTrade(message.payload),
          walletProfileOf(message.payload),
          "rtds",
          `rtds ${message.envelope.topic}/${message.envelope.type}`,
        );
      }),
      this.rtds.onStatus((status) => this.onStatus(status)),
      this.rtds.onInvalid(
        (frame) =>
          void this.countError(`rtds frame: ${frame.issues.map((i) => `${i.path || "/"} ${i.message}`).join("; ")}`),
      ),
    );
    this.rtds.start();
    this.onStatus(this.rtds.status);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    for (const stop of this.stops.splice(0)) stop();
    await this.rtds.close();
    await this.polling;
  }

  /** Whether the relay is polling /trades right now (RTDS not up). */
  get isPolling(): boolean {
    return this.polling !== null;
  }

  private onStatus(status: RtdsStatus): void {
    if (status === "up" || status === "closed" || this.polling || this.controller.signal.aborted) return;
    this.ctx.logger.info({ source: this.source, status }, "live feed down; polling /trades");
    this.polling = this.pollWhileDown().finally(() => (this.polling = null));
  }

  private async pollWhileDown(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted && this.rtds.status !== "up") {
      try {
        await this.pollOnce(signal);
      } catch (error) {
        if (signal.aborted) return;
        await this.countError(`poll /trades: ${error instanceof Error ? error.message : String(error)}`);
      }
      await this.options.sleep(this.options.pollMs, signal).catch(() => undefined);
    }
  }

  /** Publishes, oldest first, the trades newer than the newest already published (or only notes where "now" is). */
  private async pollOnce(signal: AbortSignal): Promise<void> {
    const since = this.newestTs ?? (await this.recentCheckpointTs());
    const rows: DataTradeRow[] = [];
    let pages = 0;
    for await (const item of this.dataApi.trades(
      { takerOnly: false },
      { pageSize: this.options.pollPageSize ?? 500, signal },
    )) {
      if (item.type !== "page") break;
      rows.push(...item.rows);
      if (since === null || item.rows.some((r) => r.timestamp < since) || ++pages >= (this.options.pollMaxPages ?? 5))
        break;
    }
    if (since === null) {
      // First poll with nothing published yet: start from here rather than replaying history as "live".
      for (const row of rows) {
        this.newestTs = Math.max(this.newestTs ?? 0, row.timestamp);
        try {
          this.remember(apiFillKey(fillFromDataTrade(row)));
        } catch {
          // A malformed row is counted when it would be published, not here.
        }
      }
      return;
    }
    for (const row of rows.filter((r) => r.timestamp >= since).reverse()) {
      this.publishTrade(() => fillFromDataTrade(row), walletProfileOf(row), "poll", "data-api /trades");
    }
  }

  /** Where the previous run stopped publishing, unless that is too long ago to call what follows "live". */
  private async recentCheckpointTs(): Promise<number | null> {
    const cursor = (await readCheckpoint(this.ctx.store.db, this.source))?.cursor ?? "";
    const ts = /^ts:\d+$/.test(cursor) ? Number(cursor.slice(3)) : null;
    return ts !== null && this.ctx.clock.now() - ts <= RECENT_SECONDS ? ts : null;
  }

  private publishTrade(
    fill: () => ApiFill,
    profile: WalletProfile,
    via: LiveTradeMessage["via"],
    origin: string,
  ): void {
    let trade: ApiFill;
    try {
      trade = fill();
    } catch (error) {
      void this.countError(`${origin}: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (isProtocolAddress(trade.wallet)) return;
    const key = apiFillKey(trade);
    if (this.published.has(key)) return;
    this.remember(key);
    this.newestTs = Math.max(this.newestTs ?? 0, trade.timestamp);
    const message = liveTradeMessage(trade, profile, key, via, this.ctx.clock.nowMs());
    this.pubsub
      .publish(LIVE_TRADES_CHANNEL, JSON.stringify(message))
      .catch((error: unknown) => this.ctx.logger.warn({ err: error }, "publishing a live trade failed"));
    void this.checkpoint();
  }

  private remember(key: string): void {
    if (this.published.size >= REMEMBERED_KEYS) this.published.clear();
    this.published.add(key);
  }

  private async checkpoint(): Promise<void> {
    const nowMs = this.ctx.clock.nowMs();
    if (nowMs - this.lastCheckpointMs < (this.options.checkpointEveryMs ?? 5_000) || this.newestTs === null) return;
    this.lastCheckpointMs = nowMs;
    await this.ctx.writer
      .commit({ source: this.source, cursor: `ts:${this.newestTs}`, firstSyncDone: true })
      .catch((error: unknown) => this.ctx.logger.warn({ err: error }, "live feed checkpoint failed"));
  }

  private async countError(message: string): Promise<void> {
    this.ctx.logger.warn({ source: this.source, err: message }, "live feed skipped a record");
    await recordSourceError(this.ctx.store.db, this.source, message, this.ctx.clock.now()).catch(() => undefined);
  }
}
