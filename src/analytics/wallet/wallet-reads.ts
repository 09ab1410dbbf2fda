/**
 * The wallet reads every wallet route shares: resolving an address (or a venue username) to the stored wallet,
 * the overview's stored inputs with their cache, the cold-cache rule of very heavy wallets, and the overview in
 * its three views (the signer and union views read the venue live, kept per signer and limited per client).
 */
import type { Config } from "../../config/index.js";
import type { BackgroundWork } from "../../platform/background-work.js";
import type { Platform } from "../../platform/index.js";
import type { Store } from "../../store/database.js";
import type { WalletStatsTable } from "../../store/schema.js";
import { recordWalletSigner, walletExists } from "../../store/wallets.js";
import { ChainClient, DataApiClient, PnlClient } from "../../venue/index.js";
import { safeSigner } from "../../venue/safe-owners.js";
import { ReadError, upstreamUnavailable, walletNotFound } from "../reads/read-errors.js";
import {
  emptyStats,
  findWalletByName,
  mergeStats,
  overviewBody,
  rankedTraders,
  readStats,
  resolveWallet,
  type OverviewBody,
  type WalletIdentity,
  type WalletView,
} from "./wallet-overview.js";
import { GenerationStamp } from "../../kept/generation-stamp.js";
import { STATS_GENERATION } from "../../store/derive-state.js";
import { syncRequesterOf } from "./sync-requests.js";
import { LiveVenueError, liveSignerStats, type LiveVenue } from "./wallet-signer.js";

export interface StoredOverview {
  identity: WalletIdentity;
  stats: WalletStatsTable;
  totalTraders: number;
}

/** A 0x address: 40 hex digits. */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface WalletReadsDeps {
  readonly store: Store;
  /** Where this process writes (the primary when `store` is a read replica); `store` when absent. */
  readonly primary?: Store;
  readonly platform: Platform;
  readonly config: Config;
  /** Where the load a 202 promises runs: closing the app waits for it. */
  readonly background: BackgroundWork;
}

export class WalletReads {
  private live: LiveVenue | undefined;
  /** The statistics' stamp every kept overview is keyed by (the sender's serialized ones too). */
  readonly stamp: GenerationStamp;

  constructor(private readonly deps: WalletReadsDeps) {
    this.stamp = new GenerationStamp(
      deps.store,
      deps.platform.clock,
      STATS_GENERATION,
      deps.config.boards.leaderboardCheckSeconds,
    );
  }

  get store(): Store {
    return this.deps.store;
  }

  private get primary(): Store {
    return this.deps.primary ?? this.deps.store;
  }

  private get cacheMs(): number {
    return this.deps.config.wallet.overviewCacheSeconds * 1000;
  }

  now(): number {
    return this.deps.platform.clock.now();
  }

  /** A 0x address as is (lower case), or the wallet whose venue username or pseudonym this is; null when unknown. */
  async addressOf(addressOrName: string): Promise<string | null> {
    if (ADDRESS.test(addressOrName)) return addressOrName.toLowerCase();
    return findWalletByName(this.store, addressOrName);
  }

  /**
   * The proxy wallet a wallet endpoint reads (an explicit `proxy` wins, else as `proxyOf` finds it); not found when
   * the store knows neither.
   */
  async requireProxy(address: string, proxyParam = ""): Promise<string> {
    return proxyParam ? this.knownWallet(address, proxyParam.toLowerCase()) : this.proxyOf(address);
  }

  /**
   * The proxy wallet that answers for an address, read from the overview's cached inputs when the wallet has
   * statistics: a route called again and again for one wallet then asks the store nothing (resolving it took three
   * or four reads, about 50 µs a request on SQLite, a third of a kept answer's cost).
   */
  async proxyOf(address: string): Promise<string> {
    const stored = await this.stored(address);
    if (!stored) return this.knownWallet(address, (await resolveWallet(this.store, address)).proxy);
    this.requestSync(stored.identity.proxy);
    return stored.identity.proxy;
  }

  private async knownWallet(address: string, wallet: string): Promise<string> {
    const known = (await readStats(this.store, wallet)) ?? (await walletExists(this.store, wallet));
    if (!known) throw walletNotFound(address);
    this.requestSync(wallet);
    return wallet;
  }

  /** A stored wallet's view asks for its venue sync; the answer is what is stored meanwhile. */
  requestSync(wallet: string): void {
    const { platform, config, background } = this.deps;
    syncRequesterOf(this.primary, platform.clock, config.ingest.walletSyncFreshSeconds, background).request(wallet);
  }

  /** Kept per statistics stamp: a refresh that rewrote wallet_stats (a sync derived, say) is seen at once. */
  private async cacheKey(address: string): Promise<string> {
    return `wallet-overview:${await this.stamp.current()}:${address.toLowerCase()}`;
  }

  private async loadStored(address: string): Promise<StoredOverview | null> {
    const identity = await resolveWallet(this.store, address);
    const stats = await readStats(this.store, identity.proxy);
    if (!stats) return null;
    this.requestSync(identity.proxy);
    const totalTraders = await this.totalTraders();
    return { identity, stats, totalTraders };
  }

  totalTraders(): Promise<number> {
    return this.deps.platform.cache
      .getOrLoad("wallet:ranked-traders", this.cacheMs, () => rankedTraders(this.store))
      .then((r) => r.value);
  }

  /** The stored overview inputs, cached for the overview window (null for an unknown wallet, cached CACHE_NOT_FOUND_SECONDS). */
  async stored(address: string): Promise<StoredOverview | null> {
    return (
      await this.deps.platform.cache.getOrLoadFound(await this.cacheKey(address), this.cacheMs, () =>
        this.loadStored(address),
      )
    ).value;
  }

  /**
   * Whether a public v1 overview can answer now: "computing" when the overview cache is cold for a very heavy
   * wallet, in which case the load is started in the background (the caller answers 202).
   */
  async warmOrQueue(address: string): Promise<"warm" | "computing" | "not_found"> {
    const cached = await this.deps.platform.cache.get<StoredOverview | null>(await this.cacheKey(address));
    if (cached !== undefined) return cached ? "warm" : "not_found";
    const { proxy } = await resolveWallet(this.store, address);
    const stats = await readStats(this.store, proxy);
    if (!stats) return "not_found";
    if (stats.total_trades < this.deps.config.wallet.heavyWalletTrades) return "warm";
    this.deps.background.run("heavy wallet overview", () => this.stored(address));
    return "computing";
  }

  /**
   * The overview of one address in the given view; not found: unknown wallet, or no known signer; upstream
   * unavailable: the venue is down; rate limited: `client` had RATE_LIVE_VIEWS_PER_MINUTE live views computed in
   * the last minute.
   */
  async overview(address: string, view: WalletView, degraded: boolean, client = "internal"): Promise<OverviewBody> {
    const stored = await this.stored(address);
    if (!stored) throw walletNotFound(address);
    const { identity, stats, totalTraders } = stored;
    if (view === "proxy") return overviewBody(identity, stats, totalTraders, view, degraded);
    const signer = identity.signer ?? (await this.discoverSigner(identity.proxy));
    if (!signer)
      throw new ReadError(
        "not_found",
        `No signer is known for wallet ${identity.proxy} (it is not a 1-of-1 Safe, or no RPC is configured)`,
      );
    const signerStats = await this.liveSigner(signer, client);
    const profitFactorCap = this.deps.config.ledger.profitFactorCap;
    const merged =
      view === "signer"
        ? { ...signerStats, rank_pnl: null, rank_winrate: null, rank_volume: null, rank_profit_factor: null }
        : mergeStats(stats, signerStats, profitFactorCap);
    return overviewBody({ ...identity, signer }, merged, totalTraders, view, degraded);
  }

  /**
   * Asks the chain who owns the proxy (a 1-of-1 Safe names its signer) and records the answer on the wallet, so
   * later reads, and lookups by the signer's address, know it. A proxy without one is remembered for the
   * overview window. No RPC configured: null. Chain down or slow: upstream unavailable.
   */
  private async discoverSigner(proxy: string): Promise<string | null> {
    const { chain, timeoutMs } = this.liveVenue();
    if (!chain) return null;
    const found = await this.deps.platform.cache.getOrLoad(`wallet-signer:${proxy}`, this.cacheMs, async () => {
      let signer: string | null;
      try {
        signer = await safeSigner(chain, proxy, AbortSignal.timeout(timeoutMs));
      } catch {
        throw upstreamUnavailable();
      }
      if (signer) await recordWalletSigner(this.primary, proxy, signer);
      return signer;
    });
    return found.value;
  }

  /**
   * The signer's statistics read live from the venue, kept per signer for the overview window: the venue's request
   * budget is shared by every user, so each client may have only a few computed per minute (cached ones are free).
   */
  private async liveSigner(signer: string, client: string): Promise<WalletStatsTable> {
    const { platform, config } = this.deps;
    const key = `wallet-live-signer:${signer}`;
    const cached = await platform.cache.get<WalletStatsTable>(key);
    if (cached) return cached;
    const perMinute = config.limits.liveViewsPerMinute;
    if (!(await platform.rateLimiter.consume(`live-view:${client}`, perMinute, 1)).allowed) {
      throw new ReadError(
        "rate_limited",
        `Live views (view=signer or view=union) are limited to ${perMinute} per minute per client; view=proxy is not. Retry after 60 seconds.`,
        60,
      );
    }
    const load = async () => {
      const base = (await readStats(this.store, signer)) ?? emptyStats(signer, this.now());
      try {
        return await liveSignerStats(this.liveVenue(), signer, base, config.ledger.profitFactorCap);
      } catch (error) {
        if (error instanceof LiveVenueError) throw upstreamUnavailable();
        throw error;
      }
    };
    return (await platform.cache.getOrLoad(key, this.cacheMs, load)).value;
  }

  private liveVenue(): LiveVenue {
    if (!this.live) {
      const { config } = this.deps;
      const http = { timeoutMs: config.venue.liveTimeoutMs, maxAttempts: 1 };
      this.live = {
        dataApi: DataApiClient.fromConfig(config, http),
        pnl: PnlClient.fromConfig(config, http),
        chain: ChainClient.fromConfig(config, http),
        timeoutMs: config.venue.liveTimeoutMs,
      };
    }
    return this.live;
  }
}
