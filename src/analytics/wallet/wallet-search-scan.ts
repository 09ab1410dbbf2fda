/**
 * Wallet search as it read before issue 31: every wallet's lowered names tested (`lower(name) like '%q%'`, no index
 * can serve it) and the `candidates` matching profiles with the highest total P&L ranked (500 then). Kept as the
 * reference: bench/name-lookups.bench.ts times it as "before", and with every match a candidate (`Infinity`) it is
 * the contract the indexed search answers, which the tests compare on both stores. The one change to the old
 * queries is the address tie-break of the traders (their order among equal P&L was left to the store).
 */
import { sql } from "kysely";
import type { Store } from "../../store/database.js";
import { likeLiteral, rankedResults, type SearchResult, type WalletSearchSettings } from "./wallet-search.js";

/** The number of candidates before issue 31. */
export const SCAN_CANDIDATES = 500;

export async function searchWalletsByScan(
  store: Store,
  query: string,
  settings: WalletSearchSettings,
  candidates: number,
): Promise<SearchResult[]> {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const isAddress = /^0x[0-9a-f]{0,40}$/.test(q);
  const contains = `%${likeLiteral(q)}%`;
  const prefix = `${likeLiteral(q)}%`;
  const profiles = await store.db
    .selectFrom("wallets as w")
    .leftJoin("wallet_stats as s", "s.wallet", "w.address")
    .select(["w.address", "w.name", "w.pseudonym", "s.total_pnl"])
    .where((eb) =>
      eb.or([
        ...(isAddress ? [eb(sql`w.address`, "like", sql`${prefix} escape '\\'`)] : []),
        eb(sql`lower(w.name)`, "like", sql`${contains} escape '\\'`),
        eb(sql`lower(w.pseudonym)`, "like", sql`${contains} escape '\\'`),
      ]),
    )
    .orderBy(sql`coalesce(s.total_pnl, -1e18)`, "desc")
    .orderBy("w.address")
    .$if(Number.isFinite(candidates), (qb) => qb.limit(candidates))
    .execute();
  const traders = isAddress
    ? await store.db
        .selectFrom("wallet_stats as s")
        .select(["s.wallet as address", "s.total_pnl"])
        .where(sql`s.wallet`, "like", sql`${prefix} escape '\\'`)
        .orderBy("s.total_pnl", "desc")
        .orderBy("s.wallet")
        .limit(settings.searchMaxResults)
        .execute()
    : [];
  return rankedResults(
    q,
    profiles,
    traders.map((t) => Object.assign({}, t, { name: null, pseudonym: null })),
    settings.searchMaxResults,
  );
}
