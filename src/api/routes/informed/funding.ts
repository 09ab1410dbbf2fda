/**
 * Funding (issue 52): a wallet's funders, paths and cluster (/api/v2/wallet/{address}/funding), a cluster's members
 * and combined positions (/api/v2/funding/cluster/{cluster_id}), and the clusters by size (/api/v2/funding/clusters).
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { FundingReads } from "../../../analytics/informed/funding-reads.js";
import { access } from "../../access.js";
import type { AppContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { refuseContractAddresses } from "../../params.js";
import { NoQuery, walletRoute } from "../wallet-insights/wallet-insight-schemas.js";
import {
  ClusterBody,
  ClusterParams,
  ClusterQuery,
  ClustersBody,
  ClustersQuery,
  WalletFundingBody,
} from "./funding-schemas.js";

const TAGS = ["funding"];

export const fundingRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const reads = new FundingReads(ctx.store, ctx.config.funding);

  app.get(
    "/api/v2/wallet/:address/funding",
    {
      ...walletRoute(TAGS)(
        "A wallet's funding: its funders hop by hop, its paths back to a hub, and its funding cluster",
        WalletFundingBody,
        NoQuery,
      ),
      preHandler: refuseContractAddresses,
    },
    async (request) => reads.wallet(await ctx.wallets.requireProxy(request.params.address)),
  );

  app.get(
    "/api/v2/funding/cluster/:cluster_id",
    {
      config: { access: access.public },
      schema: {
        summary: "A funding cluster: its members and their positions combined",
        tags: TAGS,
        params: ClusterParams,
        querystring: ClusterQuery,
        response: { 200: ClusterBody, 404: { $ref: "ErrorBody#" } },
      },
    },
    async (request) => {
      const cluster = await reads.cluster(request.params.cluster_id.toLowerCase(), request.query.positions);
      if (!cluster) throw notFound("No funding cluster has this funder");
      return cluster;
    },
  );

  app.get(
    "/api/v2/funding/clusters",
    {
      config: { access: access.public },
      schema: {
        summary: "Funding clusters, the biggest first",
        description:
          "Each cluster's size and its members' P&L and volume summed. Kept until the Deriver rewrites the clusters or the statistics.",
        tags: TAGS,
        querystring: ClustersQuery,
        response: { 200: ClustersBody },
      },
    },
    async (request, reply) => {
      const { limit, offset, min_size: minSize } = request.query;
      return ctx.stampedBodies.send(
        reply,
        `funding-clusters|${limit}|${offset}|${minSize}`,
        await reads.clustersStamp(),
        () => reads.clusters({ limit, offset, minSize }),
      );
    },
  );
};
