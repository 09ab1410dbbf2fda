/**
 * Wallet search over two stored sources: the wallet profiles synced from the venue (`wallets`: address,
 * display name, pseudonym) and the ledger's traders (`wallet_stats`: every wallet with fills, found by address
 * prefix even before a profile exists). Matches are case-insensitive: an address by prefix, a name or
 * pseudonym by substring; best first (exact address, then name or pseudonym prefix, then the rest), then by
 * total P&L.
 *
 * Searched in an in-memory copy of both sources (a substring match cannot use an index, and scanning the tables
 * took 0.4 s a query at 10 million fills): loaded once per process (the service does it before it listens),
 * reloaded in the background once WALLET_SEARCH_REFRESH_SECONDS old while the previous copy answers.
 */
import type { Clock } from "../platform/clock.js";
import type { Store } from "../store/database.js";

export type SearchSource = "profile" | "traders";

export interface SearchResult {
  address: string;
  name: string | null;
  source: SearchSource;
}

interface SearchEntry {
  readonly address: string;
  /** Display name, else pseudonym (what the result shows). */
  readonly name: string | null;
  /** Lower-case name and pseudonym, one per line ("" without a profile): what a substring matches. */
  readonly text: string;
  /** In `wallets` (a profile), else only in `wallet_stats`. */
  readonly profile: boolean;
  /** total_pnl; -Infinity without statistics. */
  readonly pnl: number;
}

/** One load of both sources. */
export interface SearchEntries {
  /** Every wallet, by total P&L descending, then address: the order within a rank. */
  readonly byPnl: readonly SearchEntry[];
  /** The same, by address: an address prefix is one range of it. */
  readonly byAddress: readonly SearchEntry[];
  /** The profiles whose name or pseudonym holds "0x", the only ones an address query can find by name. */
  readonly hexNamed: readonly SearchEntry[];
}

/** Rows read per query while loading: between two pages the event loop serves requests (SQLite reads block it). */
const LOAD_PAGE_ROWS = 5_000;

async function loadEntries(store: Store): Promise<SearchEntries> {
  const pnl = new Map<string, number>();
  for (let after = ""; ; ) {
    const rows = await store.db.selectFrom("wallet_stats").select(["wallet", "total_pnl"]).where("wallet", ">", after).orderBy("wallet").limit(LOAD_PAGE_ROWS).execute();
    for (const r of rows) pnl.set(r.wallet, r.total_pnl);
    if (rows.length < LOAD_PAGE_ROWS) break;
    after = rows[rows.length - 1]!.wallet;
  }
  const profiles: Profile[] = [];
  for (let after = ""; ; ) {
    const rows = await store.db.selectFrom("wallets").select(["address", "name", "pseudonym"]).where("address", ">", after).orderBy("address").limit(LOAD_PAGE_ROWS).execute();
    profiles.push(...rows);
    if (rows.length < LOAD_PAGE_ROWS) break;
    after = rows[rows.length - 1]!.address;
  }
  return searchEntriesOf(profiles, pnl);
}

interface Profile {
  address: string;
  name: string | null;
  pseudonym: string | null;
}

/** The searchable copy of the profiles and of the traders' total P&L (wallet -> total_pnl). */
export function searchEntriesOf(profiles: readonly Profile[], totalPnl: ReadonlyMap<string, number>): SearchEntries {
  const entries: SearchEntry[] = profiles.map((r) => ({
    address: r.address,
    name: r.name || r.pseudonym || null,
    // Lower-cased whole: one flat string (a concatenation would stay a rope, slow to search).
    text: `${r.name ?? ""}\n${r.pseudonym ?? ""}`.toLowerCase(),
    profile: true,
    pnl: totalPnl.get(r.address) ?? Number.NEGATIVE_INFINITY,
  }));
  const profiled = new Set(profiles.map((p) => p.address));
  for (const [address, total] of totalPnl) if (!profiled.has(address)) entries.push({ address, name: null, text: "", profile: false, pnl: total });
  const byAddress = (a: SearchEntry, b: SearchEntry) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
  const byPnl = [...entries].sort((a, b) => b.pnl - a.pnl || byAddress(a, b));
  return { byPnl, byAddress: entries.sort(byAddress), hexNamed: byPnl.filter((e) => e.text.includes("0x")) };
}

/** 1: the name or pseudonym starts with q; 2: it holds q elsewhere; null: neither. */
function nameRank(q: string, e: SearchEntry): 1 | 2 | null {
  const at = e.text.indexOf(q);
  if (at < 0) return null;
  const lines = e.text.split("\n");
  return lines[0]!.startsWith(q) || lines[1]!.startsWith(q) ? 1 : 2;
}

/** The first index of `sorted` whose address is not below `q`. */
function lowerBound(sorted: readonly SearchEntry[], q: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.address < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Past this many, an address prefix's matches are walked in P&L order (they are dense there) rather than sorted. */
const SORTED_PREFIX_MAX = 2_000;

/** The search over one load: best rank first, then total P&L, then address; `max` results at most. */
export function searchEntries(entries: SearchEntries, query: string, max: number): SearchResult[] {
  const q = query.trim().toLowerCase();
  if (q === "") return [];
  const ranked: Array<{ e: SearchEntry; rank: number }> = [];
  const seen = new Set<string>();
  const add = (e: SearchEntry, rank: number) => {
    if (!seen.has(e.address)) ranked.push({ e, rank }), seen.add(e.address);
  };
  if (/^0x[0-9a-f]{0,40}$/.test(q)) {
    // By name: only the few profiles whose name holds "0x" can match.
    for (const e of entries.hexNamed) {
      const rank = nameRank(q, e);
      if (rank !== null) add(e, e.address === q ? 0 : rank);
    }
    // By address: a range of the address order, its best by P&L taken whole or walked for.
    const from = lowerBound(entries.byAddress, q);
    const to = lowerBound(entries.byAddress, `${q}\uffff`);
    if (to - from <= SORTED_PREFIX_MAX) {
      for (const e of entries.byAddress.slice(from, to)) add(e, e.address === q ? 0 : 2);
    } else {
      let found = 0;
      for (const e of entries.byPnl) {
        if (found >= max) break;
        if (e.address.startsWith(q)) add(e, 2), found++;
      }
    }
  } else {
    const counts = [0, 0, 0];
    for (const e of entries.byPnl) {
      if (!e.profile) continue;
      const rank = nameRank(q, e);
      if (rank === null || counts[rank]! >= max) continue;
      add(e, rank);
      // Other matches can no longer make the answer once the name prefixes fill it.
      if (++counts[rank]! >= max && rank === 1) break;
    }
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || b.e.pnl - a.e.pnl || (a.e.address < b.e.address ? -1 : 1))
    .slice(0, max)
    .map(({ e }) => ({ address: e.address, name: e.profile ? e.name : null, source: e.profile ? "profile" : "traders" }));
}

export class WalletSearchIndex {
  private entries: SearchEntries | null = null;
  private loading: Promise<SearchEntries> | null = null;
  private loadedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly refreshSeconds: number,
  ) {}

  /** The loaded copy; the first call waits for it, later ones start a reload in the background once it is old. */
  current(): Promise<SearchEntries> {
    const now = this.clock.now();
    if (!this.entries) return this.loading ?? this.reload(now);
    if (!this.loading && (now - this.loadedAt >= this.refreshSeconds || now < this.loadedAt)) void this.reload(now).catch(() => undefined);
    return Promise.resolve(this.entries);
  }

  /** Drops the copy, so that the next search waits for a fresh load (readiness turned on). */
  forget(): void {
    this.entries = null;
    this.loading = null;
  }

  async search(query: string, max: number): Promise<SearchResult[]> {
    if (query.trim() === "") return [];
    return searchEntries(await this.current(), query, max);
  }

  private reload(now: number): Promise<SearchEntries> {
    const loading = loadEntries(this.store)
      .then((entries) => {
        if (this.loading === loading) {
          this.entries = entries;
          this.loadedAt = now;
        }
        return entries;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }
}
