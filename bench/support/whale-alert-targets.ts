/**
 * The whale alerts' rotations for the API bench, read from the prepared world: the feed rotated over its filters
 * (the smart whales and markets most active in the world's last day, every category, several windows and floors),
 * and the feed of every wallet (smart_only=false, read from the store, over 100 floors). Answers are kept for the
 * clock second they were computed in, so a target of one query would measure that kept answer.
 */
import { openStore } from "../../src/store/database.js";
import { FILL_ENDS } from "../../src/store/fills.js";
import { queryRows } from "../../src/store/raw-sql.js";

const ROTATED = 100;

export async function whaleAlertPaths(sqlitePath: string): Promise<{ filtered: string[]; everyWallet: string[] }> {
  const store = await openStore({ kind: "sqlite", sqlitePath });
  try {
    const [last] = await queryRows<{ end: number }>(store.db, store.kind, `select ${FILL_ENDS.latestTs} as end`);
    const end = Number(last!.end);
    const smartSince = `from fills f join wallet_stats s on s.wallet = f.wallet where s.is_smart = 1 and s.is_farmer = 0 and f.ts > ${end - 86_400}`;
    const wallets = await queryRows<{ wallet: string }>(
      store.db,
      store.kind,
      `select f.wallet ${smartSince} group by f.wallet order by count(*) desc limit ${ROTATED}`,
    );
    const markets = await queryRows<{ id: string }>(
      store.db,
      store.kind,
      `select m.id ${smartSince.replace("from fills f", "from fills f join markets m on m.condition_id = f.condition_id")} group by m.id order by count(*) desc limit ${ROTATED}`,
    );
    const filtered = [
      ...[10, 60, 240, 1440].flatMap((minutes) =>
        [10, 1000].map((min) => `/api/v2/whale-alerts?minutes=${minutes}&min_usd=${min}`),
      ),
      ...wallets.map((w) => `/api/v2/whale-alerts?minutes=1440&wallet=${w.wallet}`),
      ...markets.map((m) => `/api/v2/whale-alerts?minutes=240&market_id=${m.id}`),
      ...["Crypto", "Sports", "Politics", "Geopolitics", "Economics", "Tech"].map(
        (c) => `/api/v2/whale-alerts?minutes=60&category=${c}`,
      ),
      "/api/v2/whale-alerts?minutes=1440&limit=200",
    ];
    // Every wallet's fills are read from the store: distinct floors keep each second's answers from being reused.
    const everyWallet = Array.from(
      { length: ROTATED },
      (_, i) => `/api/v2/whale-alerts?smart_only=false&min_usd=${10 * (i + 1)}`,
    );
    return { filtered, everyWallet };
  } finally {
    await store.close();
  }
}
