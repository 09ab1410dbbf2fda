import { describe, expect, it } from "vitest";
import { parseCategory } from "../../venue/categories.js";
import { Board } from "./board-table.js";
import { BOARD_SORTS, boardPredicate, type BoardQuery, type BoardWallet } from "./leaderboard.js";

function wallet(address: string, over: Partial<BoardWallet>): BoardWallet {
  return {
    wallet: address,
    name: null,
    total_pnl: 0,
    win_rate: 0,
    profit_factor: 0,
    resolved_markets: 20,
    wins: 0,
    losses: 0,
    total_volume: 0,
    total_trades: 0,
    main_category: null,
    avg_entry_price: null,
    last_trade_ts: null,
    active_count: 0,
    market_win_rate: 0,
    market_wins: 0,
    market_losses: 0,
    mint_volume_30d: 0,
    merge_volume_30d: 0,
    is_smart: false,
    is_farmer: false,
    has_skill: false,
    skill_z: null,
    sports_pct: 0,
    pnl_24h: null,
    role_profile: "directional",
    ...over,
  };
}

const query = (over: Partial<BoardQuery>): BoardQuery => ({
  sort: "pnl",
  category: "",
  filter: "all",
  limit: 50,
  offset: 0,
  min_markets: 0,
  min_wr: 0,
  min_pnl: 0,
  min_profit_factor: 0,
  max_avg_entry: 0,
  max_sports_pct: 0,
  exclude_wallets: "",
  skill: 0,
  ...over,
});

const wallets = [
  wallet("0xa", { total_pnl: -500, avg_entry_price: 0.3, sports_pct: 80 }),
  wallet("0xb", { total_pnl: 900, is_smart: true, avg_entry_price: 0.9, main_category: "SPORTS" }),
  wallet("0xc", { total_pnl: 900, is_smart: true, has_skill: true, avg_entry_price: null }),
];
const board = new Board(wallets, 1);
const listed = (over: Partial<BoardQuery>) => board.query(query(over)).whales.map((w) => w.wallet);

describe("Board.query", () => {
  it("treats 0 as no bound for min_pnl, max_avg_entry and max_sports_pct", () => {
    expect(listed({})).toEqual(["0xb", "0xc", "0xa"]);
    expect(listed({ min_pnl: -100 })).toEqual(["0xb", "0xc"]);
    expect(listed({ max_avg_entry: 0.5 })).toEqual(["0xa"]);
    expect(listed({ max_sports_pct: 50 })).toEqual(["0xb", "0xc"]);
  });

  it("filters smart, skill, category (any case) and excluded wallets (any case); counts before paging", () => {
    expect(listed({ filter: "smart" })).toEqual(["0xb", "0xc"]);
    expect(listed({ skill: 1 })).toEqual(["0xc"]);
    expect(listed({ category: "sports" })).toEqual(["0xb"]);
    expect(listed({ exclude_wallets: " 0XB ,0xa" })).toEqual(["0xc"]);
    expect(board.query(query({ limit: 1, offset: 1 }))).toMatchObject({ total: 3, whales: [{ wallet: "0xc" }] });
    expect(board.query(query({ filter: "smart", sort: "trades", limit: 1, offset: 1 }))).toMatchObject({
      total: 2,
      whales: [{ wallet: "0xc" }],
    });
  });

  it("parses categories", () => {
    expect(parseCategory(" Tech ")).toBe("TECH");
    expect(parseCategory("")).toBeNull();
    expect(parseCategory("weather")).toBeUndefined();
  });

  it("answers every query as filtering the whole table, sorting it and paging would", () => {
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const table = Array.from({ length: 300 }, (_, i) =>
      wallet(`0x${(1_000 + i).toString(16)}`, {
        total_pnl: pick([-100, 0, 50, 900]),
        win_rate: pick([40, 55, 70]),
        total_volume: Math.round(random() * 5) * 1_000,
        total_trades: pick([1, 10, 100]),
        resolved_markets: pick([0, 10, 30]),
        is_smart: random() < 0.3,
        has_skill: random() < 0.1,
        main_category: pick([null, "SPORTS", "CRYPTO"] as const),
      }),
    );
    const shuffled = new Board([...table].reverse(), 1);
    const keyOf = { pnl: "total_pnl", win_rate: "win_rate", volume: "total_volume", trades: "total_trades" } as const;
    for (let n = 0; n < 200; n++) {
      const q = query({
        sort: pick(BOARD_SORTS),
        filter: pick(["all", "smart"] as const),
        min_markets: pick([0, 10]),
        category: pick(["", "sports"]),
        limit: pick([1, 7, 50]),
        offset: pick([0, 3, 40]),
        skill: pick([0, 1]),
      });
      const key = keyOf[q.sort];
      const all = table.filter(boardPredicate(q)).sort((a, b) => b[key] - a[key] || (a.wallet < b.wallet ? -1 : 1));
      expect(shuffled.query(q), JSON.stringify(q)).toEqual({
        whales: all.slice(q.offset, q.offset + q.limit),
        total: all.length,
      });
    }
  });
});
