/**
 * What the wallet route plugins share: resolving an address (or a venue username) to the stored wallet, the
 * overview in its three views with its cache, and the cold-cache rule of very heavy wallets.
 */
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
} from "../../analytics/wallet-overview.js";
import type { FastifyReply } from "fastify";
import { lookupCounterOf } from "../../analytics/lookups.js";
import { LocalBodyCache } from "../../analytics/window-cache.js";
import { mebibytes } from "../../platform/bounded-map.js";
import { LiveVenueError, liveSignerStats, type LiveVenue } from "../../analytics/wallet-signer.js";
import type { WalletStatsTable } from "../../store/schema.js";
import { ChainClient, DataApiClient, PnlClient } from "../../venue/index.js";
import { safeSigner } from "../../venue/safe-owners.js";
import type { AppContext } from "../context.js";
import { HttpError, notFound } from "../errors.js";
import { clientOf } from "../gate.js";
import { ADDRESS_PATTERN } from "../params.js";
import { sendSerialized } from "../send-serialized.js";

interface StoredOverview {
  identity: WalletIdentity;
  stats: WalletStatsTable;
  totalTraders: number;
}

const ADDRESS = new RegExp(ADDRESS_PATTERN);

/** The 404 of every wallet route for a wallet the store has never seen. */
export const walletNotFound = (address: string) => notFound(`Wallet ${address.toLowerCase()} not found`);

export class WalletService {
  private live: LiveVenue | undefined;
  private readonly overviewBodies: LocalBodyCache;
  /** The proxy that answered each cached overview body (lookups count for the proxy). */
  private readonly proxyOfBody = new Map<string, string>();

  constructor(private readonly ctx: AppContext) {
    this.overviewBodies = new LocalBodyCache(ctx.platform.clock, ctx.config.wallet.overviewCacheSeconds, { maxEntries: ctx.config.wallet.overviewCachedBodies, maxBytes: mebibytes(ctx.config.wallet.overviewCachedMb) }, ctx.config.server.gzipMinBytes, () => ctx.readiness.ready);
  }

  get store() {
    return this.ctx.store;
  }

  private get cacheMs(): number {
    return this.ctx.config.wallet.overviewCacheSeconds * 1000;
  }

  now(): number {
    return this.ctx.platform.clock.now();
  }

  /** A 0x address as is (lower case), or the wallet whose venue username or pseudonym this is; null when unknown. */
  async addressOf(addressOrName: string): Promise<string | null> {
    if (ADDRESS.test(addressOrName)) return addressOrName.toLowerCase();
    return findWalletByName(this.ctx.store, addressOrName);
  }

  /** The proxy wallet a position endpoint reads (an explicit `proxy` wins); 404 when the store knows neither. */
  async requireProxy(address: string, proxyParam = ""): Promise<string> {
    const wallet = proxyParam ? proxyParam.toLowerCase() : (await resolveWallet(this.ctx.store, address)).proxy;
    const known =
      (await readStats(this.ctx.store, wallet)) ??
      (await this.ctx.store.db.selectFrom("wallets").select("address").where("address", "=", wallet).executeTakeFirst());
    if (!known) throw walletNotFound(address);
    return wallet;
  }

  private cacheKey(address: string): string {
    return `wallet-overview:${address.toLowerCase()}`;
  }

  private async loadStored(address: string): Promise<StoredOverview | null> {
    const identity = await resolveWallet(this.ctx.store, address);
    const stats = await readStats(this.ctx.store, identity.proxy);
    if (!stats) return null;
    const totalTraders = await this.totalTraders();
    return { identity, stats, totalTraders };
  }

  totalTraders(): Promise<number> {
    return this.ctx.platform.cache.getOrLoad("wallet:ranked-traders", this.cacheMs, () => rankedTraders(this.ctx.store)).then((r) => r.value);
  }

  /** The stored overview inputs, cached for the overview window (null for an unknown wallet, cached CACHE_NOT_FOUND_SECONDS). */
  async stored(address: string): Promise<StoredOverview | null> {
    return (await this.ctx.platform.cache.getOrLoadFound(this.cacheKey(address), this.cacheMs, () => this.loadStored(address))).value;
  }

  /**
   * Whether a public v1 overview can answer now: false when the overview cache is cold for a very heavy wallet,
   * in which case the load is started in the background (the caller answers 202).
   */
  async warmOrQueue(address: string): Promise<"warm" | "computing" | "not_found"> {
    const cached = await this.ctx.platform.cache.get<StoredOverview | null>(this.cacheKey(address));
    if (cached !== undefined) return cached ? "warm" : "not_found";
    const { proxy } = await resolveWallet(this.ctx.store, address);
    const row = await this.ctx.store.db.selectFrom("wallet_stats").select("total_trades").where("wallet", "=", proxy).executeTakeFirst();
    if (!row) return "not_found";
    if (row.total_trades < this.ctx.config.wallet.heavyWalletTrades) return "warm";
    void this.stored(address).catch(() => undefined);
    return "computing";
  }

  /**
   * Answers an overview request and counts the lookup (for the proxy that answered). The proxy view is kept
   * serialized by the route's own serializer in this process, per address and load state, for the overview
   * window; the live views are computed each time.
   */
  async sendOverview(reply: FastifyReply, address: string, view: WalletView, degraded: boolean): Promise<FastifyReply | OverviewBody> {
    if (view !== "proxy") {
      const body = await this.overview(address, view, degraded, clientOf(reply.request));
      lookupCounterOf(this.store).record(body.profile.proxy_wallet, this.now(), reply.request.ip);
      return body;
    }
    const key = `${address.toLowerCase()}|${degraded ? 1 : 0}`;
    const json = await this.overviewBodies.get(key, async () => {
      const body = await this.overview(address, "proxy", degraded);
      if (this.proxyOfBody.size >= this.ctx.config.wallet.overviewCachedBodies) this.proxyOfBody.clear();
      this.proxyOfBody.set(key, body.profile.proxy_wallet);
      return reply.serialize(body) as string;
    });
    lookupCounterOf(this.store).record(this.proxyOfBody.get(key) ?? address.toLowerCase(), this.now(), reply.request.ip);
    return sendSerialized(reply, json);
  }

  /**
   * The overview of one address in the given view; 404 unknown wallet, 404 no known signer, 502 venue down, 429
   * when `client` has had RATE_LIVE_VIEWS_PER_MINUTE live views computed in the last minute.
   */
  async overview(address: string, view: WalletView, degraded: boolean, client = "internal"): Promise<OverviewBody> {
    const stored = await this.stored(address);
    if (!stored) throw walletNotFound(address);
    const { identity, stats, totalTraders } = stored;
    if (view === "proxy") return overviewBody(identity, stats, totalTraders, view, degraded);
    const signer = identity.signer ?? (await this.discoverSigner(identity.proxy));
    if (!signer) throw notFound(`No signer is known for wallet ${identity.proxy} (it is not a 1-of-1 Safe, or no RPC is configured)`);
    const signerStats = await this.liveSigner(signer, client);
    const merged = view === "signer" ? { ...signerStats, rank_pnl: null, rank_winrate: null, rank_volume: null, rank_profit_factor: null } : mergeStats(stats, signerStats, this.ctx.config.ledger.profitFactorCap);
    return overviewBody({ ...identity, signer }, merged, totalTraders, view, degraded);
  }

  /**
   * Asks the chain who owns the proxy (a 1-of-1 Safe names its signer) and records the answer on the wallet, so
   * later reads, and lookups by the signer's address, know it. A proxy without one is remembered for the
   * overview window. No RPC configured: null. Chain down or slow: 502.
   */
  private async discoverSigner(proxy: string): Promise<string | null> {
    const { chain, timeoutMs } = this.liveVenue();
    if (!chain) return null;
    const found = await this.ctx.platform.cache.getOrLoad(`wallet-signer:${proxy}`, this.cacheMs, async () => {
      let signer: string | null;
      try {
        signer = await safeSigner(chain, proxy, AbortSignal.timeout(timeoutMs));
      } catch {
        throw new HttpError(502, "Upstream data service temporarily unavailable");
      }
      if (signer) await this.ctx.store.db.updateTable("wallets").set({ signer }).where("address", "=", proxy).execute();
      return signer;
    });
    return found.value;
  }

  /**
   * The signer's statistics read live from the venue, kept per signer for the overview window: the venue's request
   * budget is shared by every user, so each client may have only a few computed per minute (cached ones are free).
   */
  private async liveSigner(signer: string, client: string): Promise<WalletStatsTable> {
    const key = `wallet-live-signer:${signer}`;
    const cached = await this.ctx.platform.cache.get<WalletStatsTable>(key);
    if (cached) return cached;
    const perMinute = this.ctx.config.limits.liveViewsPerMinute;
    if (!(await this.ctx.platform.rateLimiter.consume(`live-view:${client}`, perMinute, 1)).allowed) {
      throw new HttpError(429, `Live views (view=signer or view=union) are limited to ${perMinute} per minute per client; view=proxy is not. Retry after 60 seconds.`, { "Retry-After": "60" });
    }
    const load = async () => {
      const base = (await readStats(this.ctx.store, signer)) ?? emptyStats(signer, this.now());
      try {
        return await liveSignerStats(this.liveVenue(), signer, base, this.ctx.config.ledger.profitFactorCap);
      } catch (error) {
        if (error instanceof LiveVenueError) throw new HttpError(502, "Upstream data service temporarily unavailable");
        throw error;
      }
    };
    return (await this.ctx.platform.cache.getOrLoad(key, this.cacheMs, load)).value;
  }

  private liveVenue(): LiveVenue {
    if (!this.live) {
      const { config } = this.ctx;
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
