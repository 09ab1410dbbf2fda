/**
 * Which markets' text may contain a query word: an index from each three-character sequence (trigram) of a
 * market's lower-case text to the markets holding it. A word of three characters or more can only be in texts that
 * hold all its trigrams, so the markets under its rarest trigram are a superset of its matches (the search checks
 * each one); a search costs what its candidates cost, not what every market costs.
 *
 * The index lives as long as its store's market index and is brought up to date at each reload. Entries are only
 * ever added (a market whose text changes gets its new trigrams and keeps its old ones), so an index built for a
 * newer load still gives a superset for an older one that a request is still reading.
 */
export const MIN_INDEXED_WORD = 3;

export class MarketTextIndex {
  private readonly grams = new Map<string, Set<string>>();
  private readonly indexed = new Map<string, string>();

  /** Indexes a market's text (a no-op when that text is indexed already). */
  add(conditionId: string, text: string): void {
    if (this.indexed.get(conditionId) === text) return;
    this.indexed.set(conditionId, text);
    for (let i = 0; i + MIN_INDEXED_WORD <= text.length; i++) {
      const gram = text.slice(i, i + MIN_INDEXED_WORD);
      let markets = this.grams.get(gram);
      if (!markets) this.grams.set(gram, (markets = new Set()));
      markets.add(conditionId);
    }
  }

  /**
   * Condition ids of a superset of the markets whose text holds every word; undefined when no word is long
   * enough to narrow the search (every market is a candidate).
   */
  candidates(words: readonly string[]): ReadonlySet<string> | undefined {
    let smallest: Set<string> | undefined;
    for (const word of words) {
      for (let i = 0; i + MIN_INDEXED_WORD <= word.length; i++) {
        const markets = this.grams.get(word.slice(i, i + MIN_INDEXED_WORD));
        if (!markets) return new Set();
        if (!smallest || markets.size < smallest.size) smallest = markets;
      }
    }
    return smallest;
  }
}
