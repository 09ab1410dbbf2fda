/**
 * Sends wallet overviews (the v2 overview and its alias, the public v1 overview): the proxy view is kept
 * serialized in this process, per address, load state and statistics stamp (src/kept/generation-stamp.ts: a
 * refresh of the statistics retires it), for the overview window; the live views (signer,
 * union) are answered as the wallet reads compute them. Every answer counts a community lookup for its proxy.
 */
import type { FastifyReply } from "fastify";
import { lookupCounterOf } from "../../../analytics/wallet/lookups.js";
import type { OverviewBody, WalletView } from "../../../analytics/wallet/wallet-overview.js";
import { mebibytes } from "../../../platform/bounded-map.js";
import type { SerializedBody } from "../../../kept/serialized-body.js";
import { TtlBodies } from "../../../kept/ttl-bodies.js";
import type { AppContext } from "../../context.js";
import { clientOf } from "../../gate.js";
import { sendSerialized } from "../../../kept/send-serialized.js";
import { WalletOverview } from "./wallet-schemas.js";

export class OverviewSender {
  private readonly bodies: TtlBodies;
  /** The proxy that answered each kept body (lookups count for the proxy). */
  private readonly proxyOfBody = new Map<string, string>();

  constructor(private readonly ctx: AppContext) {
    const { wallet, server } = ctx.config;
    const bounds = { maxEntries: wallet.overviewCachedBodies, maxBytes: mebibytes(wallet.overviewCachedMb) };
    this.bodies = new TtlBodies(
      ctx.platform.clock,
      wallet.overviewCacheSeconds,
      bounds,
      server.gzipMinBytes,
      () => ctx.readiness.ready,
    );
  }

  async send(
    reply: FastifyReply,
    address: string,
    view: WalletView,
    degraded: boolean,
  ): Promise<FastifyReply | OverviewBody> {
    const { wallets, primary } = this.ctx;
    const lookups = lookupCounterOf(primary, this.ctx.background);
    if (view !== "proxy") {
      const body = await wallets.overview(address, view, degraded, clientOf(reply.request));
      lookups.record(body.profile.proxy_wallet, wallets.now(), reply.request.ip);
      return body;
    }
    const json = await this.proxyView(reply, address, degraded);
    lookups.record(
      this.proxyOfBody.get(await this.keyOf(address, degraded)) ?? address.toLowerCase(),
      wallets.now(),
      reply.request.ip,
    );
    return sendSerialized(reply, json);
  }

  /**
   * The proxy view of `address` serialized by the overview's schema (whatever route `reply` answers), kept for the
   * overview window: the overview routes send it, the batch of overviews places it in its answer as it is.
   */
  async proxyView(reply: FastifyReply, address: string, degraded: boolean): Promise<SerializedBody> {
    const key = await this.keyOf(address, degraded);
    return this.bodies.get(key, async () => {
      const body = await this.ctx.wallets.overview(address, "proxy", degraded);
      if (this.proxyOfBody.size >= this.ctx.config.wallet.overviewCachedBodies) this.proxyOfBody.clear();
      this.proxyOfBody.set(key, body.profile.proxy_wallet);
      return reply.serializeInput(body as unknown as Record<string, unknown>, OVERVIEW_SCHEMA) as string;
    });
  }

  private async keyOf(address: string, degraded: boolean): Promise<string> {
    return `${address.toLowerCase()}|${degraded ? 1 : 0}|${await this.ctx.wallets.stamp.current()}`;
  }
}

/** The overview's response schema, as Fastify's `serializeInput` types it (one object: its serializer is compiled once). */
const OVERVIEW_SCHEMA = WalletOverview as unknown as Record<string, unknown>;
