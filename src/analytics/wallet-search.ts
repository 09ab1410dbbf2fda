/**
 * Wallet search over two stored sources: the wallet profiles synced from the venue (`wallets`: address,
 * display name, pseudonym) and the ledger's traders (`wallet_stats`: every wallet with fills, found by address
 * prefix even before a profile exists). Matches are case-insensitive: an address by prefix, a name or
 * pseudonym by substring; best first (exact address, then name or pseudonym prefix, then the rest), then by
 * total P&L.
 */
import { sql } from "kysely";
import type { Store } from "../store/database.js";

export type SearchSource = "profile" | "traders";

export interface SearchResult {
  address: string;
  name: string | null;
  source: SearchSource;
}

/** A LIKE pattern matching `text` literally (with `\` as the escape character). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function rank(q: string, row: { address: string; name: string | null; pseudonym: string | null }): number {
  if (row.address === q) return 0;
  if (row.name?.toLowerCase().startsWith(q) || row.pseudonym?.toLowerCase().startsWith(q)) return 1;
  return 2;
}

const CANDIDATES = 500;

export async function searchWallets(store: Store, query: string, max: number): Promise<SearchResult[]> {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const isAddress = /^0x[0-9a-f]{0,40}$/.test(q);
  const contains = `%${literal(q)}%`;
  const prefix = `${literal(q)}%`;
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
    // Bounded candidate set for short queries ("0x" matches every wallet): the most profitable first.
    .orderBy(sql`coalesce(s.total_pnl, -1e18)`, "desc")
    .orderBy("w.address")
    .limit(CANDIDATES)
    .execute();
  const traders = isAddress
    ? await store.db
        .selectFrom("wallet_stats as s")
        .select(["s.wallet as address", "s.total_pnl"])
        .where(sql`s.wallet`, "like", sql`${prefix} escape '\\'`)
        .orderBy("s.total_pnl", "desc")
        .limit(max)
        .execute()
    : [];
  const found = new Map<string, SearchResult & { rank: number; pnl: number }>();
  for (const p of profiles) {
    found.set(p.address, { address: p.address, name: p.name || p.pseudonym || null, source: "profile", rank: rank(q, p), pnl: p.total_pnl ?? -Infinity });
  }
  for (const t of traders) {
    if (!found.has(t.address)) found.set(t.address, { address: t.address, name: null, source: "traders", rank: t.address === q ? 0 : 2, pnl: t.total_pnl });
  }
  return [...found.values()]
    .sort((a, b) => a.rank - b.rank || b.pnl - a.pnl || a.address.localeCompare(b.address))
    .slice(0, max)
    .map(({ address, name, source }) => ({ address, name, source }));
}
