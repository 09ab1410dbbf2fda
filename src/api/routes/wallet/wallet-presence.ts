/**
 * Who is looking: wallet page sessions (ping / watching, presence shared by every API process through the
 * platform) and the home page's community lookups (most looked-up wallets of the last 24 h).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { LOOKUP_WINDOW_SECONDS, topLookups } from "../../../analytics/wallet/lookups.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { WalletParams, refuseContractAddresses, walletErrorResponses } from "../../params.js";
import { SessionHeaders, presenceMember } from "../../presence-member.js";
import { CommunityLookupsBody, PingBody, WatchingBody } from "./wallet-schemas.js";

const COMMUNITY_LOOKUPS = 6;
const COMMUNITY_CACHE_MS = 60_000;

const presenceSet = (address: string) => `wallet:${address.toLowerCase()}`;

export const walletPresenceRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.addHook("preHandler", refuseContractAddresses);
  const { presence } = ctx.platform;
  const wallets = ctx.wallets;
  const ttlSeconds = ctx.config.limits.walletPresenceSeconds;

  app.post(
    "/api/v2/wallet/:address/ping",
    {
      config: { access: access.public },
      schema: {
        summary: "Register a wallet page session",
        description: `Keeps the session present for ${ttlSeconds} s. The session is the X-Service-Session header, else the client IP (a header never counts as an IP). 404 for a wallet the store has never seen: nothing is kept for it.`,
        tags: ["wallet"],
        params: WalletParams,
        headers: SessionHeaders,
        response: { 200: PingBody, ...walletErrorResponses },
      },
    },
    async (request) => {
      const address = request.params.address.toLowerCase();
      await wallets.requireProxy(address);
      await presence.touch(presenceSet(address), presenceMember(request), ttlSeconds * 1000);
      return { address, watching: await presence.count(presenceSet(address)), ttl_seconds: ttlSeconds };
    },
  );

  app.get(
    "/api/v2/wallet/:address/watching",
    {
      config: { access: access.public },
      schema: {
        summary: "Live sessions on a wallet page",
        tags: ["wallet"],
        params: WalletParams,
        response: { 200: WatchingBody, ...walletErrorResponses },
      },
    },
    async (request) => {
      const address = request.params.address.toLowerCase();
      return { address, watching: await presence.count(presenceSet(address)) };
    },
  );

  app.get(
    "/api/v2/home/community-lookups",
    {
      config: { access: access.public },
      schema: {
        summary: "Most looked-up wallets",
        description:
          `Top ${COMMUNITY_LOOKUPS} wallets by overview lookups over the last 24 h; cached 60 s. A lookup counts once per client (IPv4 address, IPv6 /64) ` +
          "per wallet and UTC hour, across API processes: repeating a lookup, or sending it under other session headers, adds nothing.",
        tags: ["home"],
        response: { 200: CommunityLookupsBody },
      },
    },
    async () => {
      const now = ctx.platform.clock.now();
      const { value } = await ctx.platform.cache.getOrLoad("home:community-lookups", COMMUNITY_CACHE_MS, () =>
        topLookups(ctx.primary, now, COMMUNITY_LOOKUPS),
      );
      return { wallets: value, window_hours: LOOKUP_WINDOW_SECONDS / 3600 };
    },
  );
};
