/**
 * Event templates per category: the questions, tags and price model of each kind of event the venue lists.
 * A template turns (start, end) dates into an EventDraft; catalog.ts gives it ids, paths and a resolution.
 */
import type { Category, Tag, TerritoryPlace } from "./types.js";
import type { Rng } from "./random.js";
import {
  COINS,
  COMPANIES,
  COUNTRIES,
  LEAGUES,
  MONTHS,
  PRODUCTS,
  TERRITORY,
  monthDay,
  personName,
  slugify,
} from "./names.js";

export type PriceModel = "latent" | "hazard" | "negrisk";

export interface MarketDraft {
  question: string;
  groupItemTitle: string | null;
  /** latent: the market's initial YES price (its threshold); hazard: its deadline (unix s). */
  initialPrice?: number;
  deadline?: number;
  territory?: TerritoryPlace;
}

export interface EventDraft {
  title: string;
  description: string;
  tags: Tag[];
  model: PriceModel;
  /** hazard: chance the event happens by the last deadline. */
  finalProbability?: number;
  popularity: number;
  markets: MarketDraft[];
}

export interface Template {
  weight: number;
  /** Life of the event in days (end - start). */
  life: [number, number];
  build(rng: Rng, start: number, end: number): EventDraft;
}

const tag = (id: string, label: string, slug: string): Tag => ({ id, label, slug });
export const TAGS = {
  sports: tag("1", "Sports", "sports"),
  games: tag("100639", "Games", "games"),
  politics: tag("2", "Politics", "politics"),
  elections: tag("144", "Elections", "elections"),
  worldElections: tag("101970", "World Elections", "world-elections"),
  crypto: tag("21", "Crypto", "crypto"),
  cryptoPrices: tag("1312", "Crypto Prices", "crypto-prices"),
  geopolitics: tag("100265", "Geopolitics", "geopolitics"),
  ukraine: tag("101", "Ukraine", "ukraine"),
  russia: tag("102", "Russia", "russia"),
  ukraineMap: tag("103032", "Ukraine Map", "ukraine-map"),
  world: tag("1597", "World", "world"),
  economy: tag("100328", "Economy", "economy"),
  fed: tag("100196", "Fed", "fed"),
  fedRates: tag("100208", "Fed Rates", "fed-rates"),
  inflation: tag("702", "Inflation", "inflation"),
  tech: tag("1401", "Tech", "tech"),
  ai: tag("439", "AI", "ai"),
  bigTech: tag("101999", "Big Tech", "big-tech"),
} as const;

const DAY = 86_400;
const resolves = (yes: string) =>
  `This market will resolve to "Yes" if ${yes}. Otherwise, this market will resolve to "No".`;

/** Deadlines spread over (start, end], the last one at end. */
function deadlines(rng: Rng, start: number, end: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= count; i++)
    out.push(Math.round(start + ((end - start) * i) / count - (i < count ? rng.between(0, 3) * DAY : 0)));
  return out;
}

function sportsGame(rng: Rng, start: number, end: number): EventDraft {
  const league = rng.pick(LEAGUES);
  const home = rng.pick(league.teams);
  let away = rng.pick(league.teams);
  while (away === home) away = rng.pick(league.teams);
  const title = `Will the ${home} beat the ${away} on ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`the ${home} win the game scheduled for ${monthDay(end)}`),
    tags: [TAGS.sports, tag(String(700 + LEAGUES.indexOf(league)), league.name, league.tag), TAGS.games],
    model: "latent",
    popularity: 1.2,
    markets: [{ question: title, groupItemTitle: null, initialPrice: rng.between(0.25, 0.75) }],
  };
}

function sportsChampion(rng: Rng, _start: number, end: number): EventDraft {
  const league = rng.pick(LEAGUES);
  const year = new Date(end * 1000).getUTCFullYear();
  const teams = rng.shuffle([...league.teams]).slice(0, rng.intBetween(6, Math.min(10, league.teams.length)));
  return {
    title: `${league.name} Champion ${year}`,
    description: `This is a market group on the winner of the ${year} ${league.name} season.`,
    tags: [TAGS.sports, tag(String(700 + LEAGUES.indexOf(league)), league.name, league.tag)],
    model: "negrisk",
    popularity: 2.2,
    markets: teams.map((team) => ({
      question: `Will the ${team} win the ${year} ${league.name}?`,
      groupItemTitle: team,
    })),
  };
}

function cryptoUpDown(rng: Rng, _start: number, end: number): EventDraft {
  const coin = rng.pick(COINS);
  const title = `${coin.name} Up or Down on ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`the ${coin.name} price at the close of ${monthDay(end)} is higher than at its open`),
    tags: [TAGS.crypto, tag("235" + COINS.indexOf(coin), coin.name, coin.tag), TAGS.cryptoPrices],
    model: "latent",
    popularity: 1.6,
    markets: [{ question: title, groupItemTitle: null, initialPrice: rng.between(0.45, 0.55) }],
  };
}

function cryptoStrikes(rng: Rng, _start: number, end: number): EventDraft {
  const coin = rng.pick(COINS);
  const count = rng.intBetween(3, 5);
  const base = coin.spot + coin.step * rng.intBetween(-2, 1);
  const fmt = (v: number) => `$${v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2)}`;
  const markets = Array.from({ length: count }, (_, i) => {
    const strike = base + i * coin.step;
    return {
      question: `Will the price of ${coin.name} be above ${fmt(strike)} on ${monthDay(end)}?`,
      groupItemTitle: fmt(strike),
      initialPrice: 0.85 - (0.75 * i) / Math.max(1, count - 1),
    };
  });
  return {
    title: `${coin.name} above ___ on ${monthDay(end)}?`,
    description: `Markets on the ${coin.name} price at noon ET on ${monthDay(end)}.`,
    tags: [TAGS.crypto, tag("235" + COINS.indexOf(coin), coin.name, coin.tag), TAGS.cryptoPrices],
    model: "latent",
    popularity: 1.4,
    markets,
  };
}

function cryptoRange(rng: Rng, _start: number, end: number): EventDraft {
  const coin = rng.pick(COINS);
  const count = rng.intBetween(5, 7);
  const low = coin.spot - coin.step * Math.floor(count / 2);
  const fmt = (v: number) => (v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2));
  const markets = Array.from({ length: count }, (_, i) => {
    const a = low + (i - 1) * coin.step;
    const title = i === 0 ? `<$${fmt(low)}` : i === count - 1 ? `>$${fmt(a)}` : `$${fmt(a)}-${fmt(a + coin.step)}`;
    return { question: `Will ${coin.name} be priced ${title} on ${monthDay(end)}?`, groupItemTitle: title };
  });
  return {
    title: `${coin.name} price on ${monthDay(end)}?`,
    description: `This is a market group on the ${coin.name} price on ${monthDay(end)}.`,
    tags: [TAGS.crypto, tag("235" + COINS.indexOf(coin), coin.name, coin.tag), TAGS.cryptoPrices],
    model: "negrisk",
    popularity: 1.3,
    markets,
  };
}

function cryptoReach(rng: Rng, _start: number, end: number): EventDraft {
  const coin = rng.pick(COINS);
  const target = coin.spot + coin.step * rng.intBetween(2, 6);
  const price = target >= 100 ? `$${Math.round(target).toLocaleString("en-US")}` : `$${target.toFixed(2)}`;
  const title = `Will ${coin.name} reach ${price} by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(
      `any Binance 1-minute candle for ${coin.name} has a high of ${price} or more before the deadline`,
    ),
    tags: [TAGS.crypto, tag("235" + COINS.indexOf(coin), coin.name, coin.tag), TAGS.cryptoPrices],
    model: "hazard",
    finalProbability: rng.between(0.1, 0.6),
    popularity: 1.1,
    markets: [{ question: title, groupItemTitle: null, deadline: end }],
  };
}

function election(rng: Rng, _start: number, end: number): EventDraft {
  const country = rng.pick(COUNTRIES);
  const names = new Set<string>();
  const count = rng.intBetween(4, 9);
  while (names.size < count) names.add(personName(rng));
  const year = new Date(end * 1000).getUTCFullYear();
  return {
    title: `${country} Presidential Election ${year}`,
    description: `This is a market group on the winner of the ${year} presidential election in ${country}.`,
    tags: [TAGS.politics, TAGS.elections, TAGS.worldElections],
    model: "negrisk",
    popularity: 1.8,
    markets: [...names].map((n) => ({
      question: `Will ${n} win the ${year} ${country} presidential election?`,
      groupItemTitle: n,
    })),
  };
}

function resignation(rng: Rng, _start: number, end: number): EventDraft {
  const person = personName(rng);
  const role = rng.pick(["Prime Minister", "Finance Minister", "party leader", "Speaker"]);
  const country = rng.pick(COUNTRIES);
  const title = `Will ${person} resign as ${country}'s ${role} by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`${person} announces a resignation before the deadline`),
    tags: [TAGS.politics],
    model: "hazard",
    finalProbability: rng.between(0.05, 0.4),
    popularity: 0.8,
    markets: [{ question: title, groupItemTitle: null, deadline: end }],
  };
}

function billPasses(rng: Rng, _start: number, end: number): EventDraft {
  const country = rng.pick(COUNTRIES);
  const bill = rng.pick(["budget", "pension reform", "energy bill", "tax package", "constitutional amendment"]);
  const title = `Will ${country}'s parliament pass the ${bill} by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`the ${bill} passes its final vote before the deadline`),
    tags: [TAGS.politics],
    model: "latent",
    popularity: 0.7,
    markets: [{ question: title, groupItemTitle: null, initialPrice: rng.between(0.15, 0.85) }],
  };
}

function ceasefire(rng: Rng, start: number, end: number): EventDraft {
  const count = rng.intBetween(2, 3);
  return {
    title: "Russia x Ukraine ceasefire?",
    description: "Markets on an officially announced ceasefire between Russia and Ukraine.",
    tags: [TAGS.geopolitics, TAGS.ukraine, TAGS.russia],
    model: "hazard",
    finalProbability: rng.between(0.1, 0.45),
    popularity: 1.5,
    markets: deadlines(rng, start, end, count).map((d) => ({
      question: `Russia x Ukraine ceasefire by ${monthDay(d)}?`,
      groupItemTitle: monthDay(d),
      deadline: d,
    })),
  };
}

function summit(rng: Rng, _start: number, end: number): EventDraft {
  const a = rng.pick(COUNTRIES);
  let b = rng.pick(COUNTRIES);
  while (b === a) b = rng.pick(COUNTRIES);
  const title = `Will ${a} and ${b} sign a security pact by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`both governments sign a security agreement before the deadline`),
    tags: [TAGS.geopolitics, TAGS.world],
    model: "hazard",
    finalProbability: rng.between(0.1, 0.5),
    popularity: 0.6,
    markets: [{ question: title, groupItemTitle: null, deadline: end }],
  };
}

function fedDecision(_rng: Rng, _start: number, end: number): EventDraft {
  const month = MONTHS[new Date(end * 1000).getUTCMonth()];
  const options = ["No change", "25 bps decrease", "50+ bps decrease", "25+ bps increase"];
  return {
    title: `Fed decision in ${month}?`,
    description: `This is a market group on the Federal Reserve's rate decision at its ${month} meeting.`,
    tags: [TAGS.economy, TAGS.fed, TAGS.fedRates],
    model: "negrisk",
    popularity: 1.5,
    markets: options.map((o) => ({
      question: `Will the Fed announce ${o.toLowerCase()} after the ${month} meeting?`,
      groupItemTitle: o,
    })),
  };
}

function inflation(rng: Rng, _start: number, end: number): EventDraft {
  const month = MONTHS[new Date(end * 1000).getUTCMonth()];
  const count = rng.intBetween(3, 4);
  const first = rng.pick([2.4, 2.5, 2.6, 2.7]);
  return {
    title: `US inflation in ${month}?`,
    description: `Markets on the year-over-year CPI print released for ${month}.`,
    tags: [TAGS.economy, TAGS.inflation],
    model: "latent",
    popularity: 0.9,
    markets: Array.from({ length: count }, (_, i) => {
      const level = (first + i * 0.2).toFixed(1);
      return {
        question: `Will US CPI inflation be above ${level}% in ${month}?`,
        groupItemTitle: `>${level}%`,
        initialPrice: 0.8 - (0.65 * i) / (count - 1),
      };
    }),
  };
}

function recession(rng: Rng, _start: number, end: number): EventDraft {
  const title = `US recession by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(
      "the NBER announces a recession, or two consecutive quarters of negative GDP growth are reported",
    ),
    tags: [TAGS.economy],
    model: "hazard",
    finalProbability: rng.between(0.05, 0.35),
    popularity: 0.9,
    markets: [{ question: title, groupItemTitle: null, deadline: end }],
  };
}

function bestModel(rng: Rng, _start: number, end: number): EventDraft {
  const month = MONTHS[new Date(end * 1000).getUTCMonth()];
  const companies = rng.shuffle([...COMPANIES]).slice(0, rng.intBetween(5, 7));
  return {
    title: `Which company has the best AI model end of ${month}?`,
    description: `Resolves by the top of the text leaderboard at the end of ${month}.`,
    tags: [TAGS.tech, TAGS.ai],
    model: "negrisk",
    popularity: 1.1,
    markets: companies.map((c) => ({
      question: `Will ${c} have the best AI model at the end of ${month}?`,
      groupItemTitle: c,
    })),
  };
}

function release(rng: Rng, _start: number, end: number): EventDraft {
  const company = rng.pick(COMPANIES);
  const product = rng.pick(PRODUCTS);
  const title = `Will ${company} release ${product} by ${monthDay(end)}?`;
  return {
    title,
    description: resolves(`${company} makes ${product} publicly available before the deadline`),
    tags: [TAGS.tech, TAGS.ai, TAGS.bigTech],
    model: "hazard",
    finalProbability: rng.between(0.2, 0.7),
    popularity: 0.8,
    markets: [{ question: title, groupItemTitle: null, deadline: end }],
  };
}

export const TEMPLATES: Record<Category, Template[]> = {
  SPORTS: [
    { weight: 7, life: [1, 4], build: sportsGame },
    { weight: 1, life: [60, 200], build: sportsChampion },
  ],
  CRYPTO: [
    { weight: 3, life: [1, 1], build: cryptoUpDown },
    { weight: 2, life: [3, 30], build: cryptoStrikes },
    { weight: 1, life: [7, 30], build: cryptoRange },
    { weight: 2, life: [14, 90], build: cryptoReach },
  ],
  POLITICS: [
    { weight: 2, life: [60, 250], build: election },
    { weight: 1, life: [30, 200], build: resignation },
    { weight: 1, life: [20, 120], build: billPasses },
  ],
  GEOPOLITICS: [
    { weight: 1, life: [60, 240], build: ceasefire },
    { weight: 2, life: [30, 150], build: summit },
  ],
  ECONOMICS: [
    { weight: 2, life: [30, 60], build: fedDecision },
    { weight: 1, life: [20, 40], build: inflation },
    { weight: 1, life: [90, 250], build: recession },
  ],
  TECH: [
    { weight: 2, life: [20, 60], build: bestModel },
    { weight: 2, life: [20, 120], build: release },
  ],
};

export const CATEGORY_WEIGHTS: Record<Category, number> = {
  SPORTS: 0.27,
  CRYPTO: 0.22,
  POLITICS: 0.18,
  GEOPOLITICS: 0.1,
  ECONOMICS: 0.11,
  TECH: 0.12,
};

/** Territory events (category GEOPOLITICS, tag ukraine-map) with the venue's slug families. */
export function territoryDrafts(
  rng: Rng,
  start: number,
  end: number,
  budget: number,
): { draft: EventDraft; start: number }[] {
  const span = end - start;
  const out: { draft: EventDraft; start: number }[] = [];
  const make = (kind: TerritoryPlace["kind"], place: { name: string; lat: number; lon: number }, count: number) => {
    const eventStart = start - rng.between(10, 40) * DAY;
    const last = end + rng.between(20, 90) * DAY;
    const ds = deadlines(rng, start + span * rng.between(0.25, 0.5), last, count);
    const slugName = slugify(place.name);
    const verb = kind === "enter" ? "enter" : kind === "capture-all" ? "capture all of" : "capture";
    const territory: TerritoryPlace = { kind, name: place.name, slugName, lat: place.lat, lon: place.lon };
    out.push({
      start: eventStart,
      draft: {
        title: `Will Russia ${verb} ${place.name}?`,
        description: `Resolves by the ISW map: "Yes" once ${kind === "enter" ? `Russian forces are assessed to have entered ${place.name}` : `${kind === "capture-all" ? "all of " : ""}${place.name} is assessed under Russian control`} before the deadline.`,
        tags: [TAGS.geopolitics, TAGS.ukraine, TAGS.russia, TAGS.ukraineMap],
        model: "hazard",
        finalProbability: rng.between(0.35, 0.8),
        popularity: 1.3,
        markets: ds.map((d) => ({
          question: `Will Russia ${verb} ${place.name} by ${monthDay(d)}?`,
          groupItemTitle: monthDay(d),
          deadline: d,
          territory,
        })),
      },
    });
  };
  if (budget < 4) return out;
  make("capture-all", TERRITORY.captureAll[0], budget >= 20 ? 3 : 2);
  if (budget >= 10) make("enter", TERRITORY.enter[0], 1);
  if (budget >= 20) {
    for (const place of TERRITORY.capture) make("capture", place, 2);
    for (const place of TERRITORY.enter.slice(1)) make("enter", place, 1);
  }
  return out;
}
