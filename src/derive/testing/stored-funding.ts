/**
 * A simulated world's funding stored as a complete run of the funding reader (src/ingest/funding-sync.ts) stores it,
 * without the reader: every wallet of the store traced, the earliest FUNDING_MAX_TRANSFERS transfers into each
 * address, senders that are not hubs traced in turn up to FUNDING_HOPS - 1 hops; then the clusters written. For the
 * tests and benches over stored worlds; test/funding.test.ts checks it against the reader.
 */
import type { Config } from "../../config/index.js";
import { transferLog } from "../../sim/servers/funding-logs.js";
import { blockAt, type World } from "../../sim/world/index.js";
import type { Store } from "../../store/database.js";
import { saveTracedFunding } from "../../store/funding.js";
import type { FundingTransfersTable } from "../../store/schema.js";
import { fundingHubs, isFundingSender } from "../../venue/index.js";
import { FundingClusterWriter } from "../funding-clusters.js";

export async function loadWorldFunding(
  store: Store,
  world: World,
  settings: Pick<Config["funding"], "hops" | "maxTransfers" | "extraHubs" | "hubFanout">,
): Promise<{ addresses: number; transfers: number }> {
  const hubs = fundingHubs(settings.extraHubs);
  const wallets = (await store.db.selectFrom("wallets").select("address").execute()).map((r) => r.address);
  const hop = new Map(wallets.map((w) => [w, 0]));
  const transfers: FundingTransfersTable[] = [];
  const traced: { address: string; transfers: number }[] = [];
  for (let level = wallets; level.length > 0; ) {
    const next: string[] = [];
    for (const address of level) {
      const kept = world.funding
        .into(address)
        .filter((i) => isFundingSender(world.funding.from[i]!))
        .slice(0, settings.maxTransfers);
      traced.push({ address, transfers: kept.length });
      for (const i of kept) {
        const log = transferLog(world, i);
        const from = world.funding.from[i]!;
        transfers.push({
          block_number: log.blockNumber,
          log_index: log.logIndex,
          tx_hash: log.transactionHash,
          ts: world.funding.ts[i]!,
          token: world.funding.token(i),
          from_address: from,
          to_address: address,
          amount_micro: world.funding.amount[i]!,
        });
        const h = hop.get(address)! + 1;
        if (h < settings.hops && !hubs.has(from) && !hop.has(from)) {
          hop.set(from, h);
          next.push(from);
        }
      }
    }
    level = next;
  }
  const funders = [...hop].filter(([, h]) => h > 0).map(([address, h]) => ({ address, hop: h }));
  // The wallets first (hop 0), as the reader queues them; then its funders and the read of every address.
  for (let i = 0; i < wallets.length; i += 500)
    await store.db
      .insertInto("funding_addresses")
      .values(wallets.slice(i, i + 500).map((address) => ({ address, hop: 0, traced_to_block: null, transfers: 0 })))
      .onConflict((oc) => oc.column("address").doNothing())
      .execute();
  await saveTracedFunding(store, { traced, toBlock: blockAt(world.end), transfers, funders });
  await new FundingClusterWriter(store, settings).refresh();
  return { addresses: traced.length, transfers: transfers.length };
}
