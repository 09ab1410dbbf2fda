/**
 * Which market an outcome token or a condition belongs to, for pipelines whose records name only the token
 * (chain fills) or the condition (splits, merges, redemptions, resolutions). Known from the store (markets
 * sync), else asked of Gamma; markets found that way are written with the batch that needed them. Answers are
 * cached; tokens and conditions Gamma does not know are remembered too (their records wait in the store, see
 * unlisted-markets.ts), until `forgetUnknown` has them asked again.
 */
import type { Store } from "../store/database.js";
import { knownConditions, tokenFacts, type TokenFacts } from "../store/markets.js";
import { skippedRows, type GammaClient, type GammaMarket } from "../venue/index.js";
import type { Clock } from "../platform/clock.js";
import { addMarkets, emptyMarketRows, type MarketRows } from "./market-rows.js";

const CACHE_LIMIT = 500_000;
/** Ids per Gamma request (repeated parameters in one URL). */
const LOOKUP_CHUNK = 50;

export interface Lookup<T> {
  readonly found: T;
  /** Markets fetched from Gamma, to write with the batch. */
  readonly rows: MarketRows;
}

export class MarketDirectory {
  private readonly tokens = new Map<string, TokenFacts>();
  private readonly conditions = new Set<string>();
  private readonly unknownTokens = new Set<string>();
  private readonly unknownConditions = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly gamma: GammaClient,
    private readonly clock: Clock,
  ) {}

  async tokenFacts(tokenIds: Iterable<string>, signal?: AbortSignal): Promise<Lookup<Map<string, TokenFacts>>> {
    const found = new Map<string, TokenFacts>();
    const missing: string[] = [];
    for (const id of new Set(tokenIds)) {
      const cached = this.tokens.get(id);
      if (cached) found.set(id, cached);
      else if (!this.unknownTokens.has(id)) missing.push(id);
    }
    const rows = emptyMarketRows();
    if (missing.length === 0) return { found, rows };
    const stored = await tokenFacts(this.store.db, missing);
    const notStored = missing.filter((id) => !stored.has(id));
    if (notStored.length > 0) {
      await this.fetch(notStored, "clob_token_ids", rows, signal);
      for (const token of rows.tokens)
        stored.set(token.token_id, { conditionId: token.condition_id, outcomeIndex: token.outcome_index });
      for (const id of notStored) if (!stored.has(id)) this.remember(this.unknownTokens, id);
    }
    for (const [id, facts] of stored) {
      found.set(id, facts);
      this.rememberToken(id, facts);
    }
    return { found, rows };
  }

  async knownConditions(conditionIds: Iterable<string>, signal?: AbortSignal): Promise<Lookup<Set<string>>> {
    const found = new Set<string>();
    const missing: string[] = [];
    for (const id of new Set(conditionIds)) {
      if (this.conditions.has(id)) found.add(id);
      else if (!this.unknownConditions.has(id)) missing.push(id);
    }
    const rows = emptyMarketRows();
    if (missing.length === 0) return { found, rows };
    const stored = await knownConditions(this.store.db, missing);
    const notStored = missing.filter((id) => !stored.has(id));
    if (notStored.length > 0) {
      await this.fetch(notStored, "condition_ids", rows, signal);
      for (const market of rows.markets) stored.add(market.condition_id);
      for (const id of notStored) if (!stored.has(id)) this.remember(this.unknownConditions, id);
    }
    for (const id of stored) {
      found.add(id);
      this.remember(this.conditions, id);
    }
    return { found, rows };
  }

  /** The next lookups of these tokens and conditions ask the store and Gamma again. */
  forgetUnknown(tokenIds: Iterable<string>, conditionIds: Iterable<string>): void {
    for (const id of tokenIds) this.unknownTokens.delete(id);
    for (const id of conditionIds) this.unknownConditions.delete(id);
  }

  private async fetch(
    ids: readonly string[],
    by: "clob_token_ids" | "condition_ids",
    rows: MarketRows,
    signal?: AbortSignal,
  ): Promise<void> {
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const chunk = ids.slice(i, i + LOOKUP_CHUNK);
      const markets: GammaMarket[] = [];
      // Gamma lists closed markets only when asked with closed=true.
      for (const closed of [false, true]) {
        const page = await this.gamma.marketsPage({ [by]: chunk, closed, limit: chunk.length }, signal);
        markets.push(...page.rows);
        rows.skipped.push(...skippedRows(page.rejected));
      }
      addMarkets(rows, markets, `gamma /markets ${by}`, this.clock.now());
    }
  }

  private rememberToken(id: string, facts: TokenFacts): void {
    if (this.tokens.size >= CACHE_LIMIT) this.tokens.clear();
    this.tokens.set(id, facts);
  }

  private remember(set: Set<string>, id: string): void {
    if (set.size >= CACHE_LIMIT) set.clear();
    set.add(id);
  }
}
