/**
 * The MCP server's prompts: the questions people bring, as a plan over the tools and the metric definitions, so that
 * an agent answers them from Pelagic's figures rather than from memory. Their arguments complete from the API
 * (a wallet from wallet search, a market from market search).
 */
import { METRICS_URI } from "./resources.js";

export interface PromptSpec {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly argument: { readonly name: string; readonly description: string };
  text(value: string): string;
}

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: "copy_wallet",
    title: "Is this wallet worth copying?",
    description: "Decide from Pelagic's figures whether a wallet's trades are worth copying, with the evidence.",
    argument: { name: "address", description: "the wallet: 0x and 40 hex digits (completes from a name)" },
    text: (address) =>
      [
        `Is the wallet ${address} worth copy-trading? Work it out from Pelagic's figures, then answer yes, no or not yet, with the evidence.`,
        "1. wallet_profile: its P&L, its win rate over how many resolved markets, its profit factor; whether it is Smart Money, a farmer (gains that are not skill) or has the skill badge.",
        "2. wallet_closed_positions with sort=pnl, then sort=pnl_asc: are its gains spread over many markets or owed to one?",
        "3. whale_backtest (Premium): what buying where it bought would have made; page through with offset until has_more is false.",
        "4. wallet_open_positions: what it holds now, and whether its entry prices can still be had.",
        "5. similar_traders and whale_matches: whether it trades alongside other Smart Money.",
        `What each figure means: the resource ${METRICS_URI}/classifications (Smart Money, farmers, the skill badge) and ${METRICS_URI}/wallet-figures.`,
        "Say where a figure is missing or a sample is small (under 30 resolved markets is little evidence). This is analysis, not financial advice.",
      ].join("\n"),
  },
  {
    name: "smart_money_on_market",
    title: "Who is smart money on this market?",
    description: "Who the Smart Money wallets on a market are, which side they take, and how much they stake.",
    argument: { name: "market_id", description: "the venue's market id (completes from the market's words)" },
    text: (marketId) =>
      [
        `Who is Smart Money on the market ${marketId}, and which way do they lean?`,
        "1. market_consensus: the Smart Money head-count and USD per side, each team's members, the top traders.",
        "2. wallet_profile for the largest members of each team: P&L, win rate, resolved markets, farmer or not.",
        `3. whale_alerts with market_id=${marketId} and minutes=1440 (Premium): their latest fills in it; big_positions for the largest holdings.`,
        `What the figures mean: the resource ${METRICS_URI}/market-figures (consensus, teams) and ${METRICS_URI}/classifications.`,
        "Answer with the lean (YES or NO) in head-counts and USD, the strongest whales on each side with their records, and how recent their moves are.",
      ].join("\n"),
  },
];

/** Where a prompt's or a resource template's argument completes from: a search route and the field it offers. */
export const COMPLETIONS: Readonly<
  Record<string, { readonly route: string; readonly list: string; readonly field: string; readonly limit?: number }>
> = {
  address: { route: "/api/v2/wallet-search", list: "results", field: "address" },
  market_id: { route: "/api/v2/markets/search", list: "markets", field: "id", limit: 10 },
};
