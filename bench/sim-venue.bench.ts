/**
 * The simulated venue's serving rates on the default world (500 markets, 5,000 wallets, 300,000 fills, 180
 * days): start-up, the whole chain history through ChainClient.logs, Gamma markets, /trades to the ceiling,
 * and one busy wallet's positions and P&L curve.
 *
 *   node --import tsx bench/sim-venue.bench.ts
 */
import { logFilterFor, type VenueEventKind } from "../src/venue/chain/abi.js";
import { ChainClient } from "../src/venue/chain/client.js";
import { DataApiClient } from "../src/venue/data-api.js";
import { GammaClient } from "../src/venue/gamma.js";
import { VenueHttpClient } from "../src/venue/http.js";
import { collectPages } from "../src/venue/paging.js";
import { PnlClient } from "../src/venue/pnl.js";
import { startSimVenue } from "../src/sim/servers/index.js";
import { blockAt } from "../src/sim/world/index.js";

const END = Date.UTC(2026, 10, 21) / 1000;
const KINDS: VenueEventKind[] = [
  "OrderFilledV1",
  "OrdersMatchedV1",
  "OrderFilledV2",
  "OrdersMatchedV2",
  "PositionsConverted",
  "PositionSplit",
  "PositionsMerge",
  "PayoutRedemption",
  "ConditionResolution",
];

async function timed<T>(
  label: string,
  run: () => Promise<T>,
  describe: (result: T, seconds: number) => string,
): Promise<T> {
  const t0 = performance.now();
  const result = await run();
  const seconds = (performance.now() - t0) / 1000;
  console.log(`${label}: ${seconds.toFixed(2)} s, ${describe(result, seconds)}`);
  return result;
}

const http = (name: string, baseUrl: string) => new VenueHttpClient({ name, baseUrl, timeoutMs: 60_000 });
const venue = await timed(
  "start-up (generate + listen)",
  () => startSimVenue({ worldOptions: { seed: 1, end: END } }),
  (v) => `${v.world.fillCount.toLocaleString("en-US")} fills`,
);
try {
  for (const span of [2_000]) {
    const chain = new ChainClient(http("rpc", venue.urls.rpc), { maxBlockSpan: span });
    await timed(
      `eth_getLogs, whole history, span ${span.toLocaleString("en-US")} blocks`,
      async () => {
        let logs = 0;
        let requests = 0;
        for await (const chunk of chain.logs({
          ...logFilterFor(KINDS),
          fromBlock: blockAt(venue.world.start),
          toBlock: await chain.blockNumber(),
        })) {
          logs += chunk.logs.length;
          requests++;
        }
        return { logs, requests };
      },
      (r, s) =>
        `${r.logs.toLocaleString("en-US")} logs in ${r.requests} chunks, ${Math.round(r.logs / s).toLocaleString("en-US")} logs/s`,
    );
  }
  const gamma = new GammaClient(http("gamma", venue.urls.gamma));
  await timed(
    "gamma /markets, open and closed",
    async () =>
      (await collectPages(gamma.markets({}))).rows.length +
      (await collectPages(gamma.markets({ closed: true }))).rows.length,
    (n) => `${n} markets`,
  );
  const dataApi = new DataApiClient(http("data-api", venue.urls.dataApi));
  await timed(
    "data-api /trades to the ceiling",
    async () => collectPages(dataApi.trades({}, { pageSize: 1_000 })),
    (r) => `${r.rows.length.toLocaleString("en-US")} rows, truncated ${r.truncated}`,
  );
  const busiest = venue.world.wallets
    .map((w) => w.index)
    .sort((a, b) => venue.world.fillsOfWallet(b).length - venue.world.fillsOfWallet(a).length)[0]!;
  const user = venue.world.wallets[busiest]!.proxyWallet;
  await timed(
    `busiest wallet (${venue.world.fillsOfWallet(busiest).length.toLocaleString("en-US")} fills): /positions + user-pnl`,
    async () => {
      const positions = await collectPages(dataApi.positions(user, { sizeThreshold: 0 }));
      const curve = await new PnlClient(http("user-pnl", venue.urls.pnl)).curve(user);
      return positions.rows.length + curve.points.length;
    },
    (n) => `${n} rows`,
  );
  await timed(
    "data-api /v1/leaderboard (cold: every wallet's reference P&L)",
    async () => collectPages(dataApi.leaderboard({ timePeriod: "WEEK" })),
    (r) => `${r.rows.length} rows`,
  );
} finally {
  await venue.close();
}
