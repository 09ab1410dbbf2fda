/** Word lists of the simulated venue: pseudonyms, usernames, and the nouns of market questions. All fictional people. */
import type { Rng } from "./random.js";

const ADJECTIVES = [
  "Brisk",
  "Calm",
  "Clever",
  "Dapper",
  "Eager",
  "Fearless",
  "Gentle",
  "Hasty",
  "Jolly",
  "Keen",
  "Lively",
  "Mellow",
  "Nimble",
  "Odd",
  "Proud",
  "Quiet",
  "Rapid",
  "Shy",
  "Tidy",
  "Upbeat",
  "Vivid",
  "Witty",
  "Zesty",
  "Bold",
  "Crafty",
  "Dusty",
  "Frosty",
  "Grumpy",
  "Hollow",
  "Icy",
  "Jagged",
  "Lucky",
  "Misty",
  "Noble",
  "Plain",
  "Rusty",
  "Sunny",
  "Tame",
  "Urban",
  "Wild",
  "Amber",
  "Bright",
  "Crimson",
  "Gilded",
  "Hidden",
  "Ivory",
  "Lunar",
  "Polar",
  "Silent",
];

const NOUNS = [
  "Heron",
  "Badger",
  "Falcon",
  "Otter",
  "Lemming",
  "Walrus",
  "Marmot",
  "Puffin",
  "Gecko",
  "Bison",
  "Koala",
  "Lynx",
  "Moose",
  "Newt",
  "Ocelot",
  "Panda",
  "Quokka",
  "Raven",
  "Stoat",
  "Tapir",
  "Viper",
  "Wombat",
  "Yak",
  "Zebra",
  "Anchor",
  "Beacon",
  "Compass",
  "Dune",
  "Ember",
  "Fjord",
  "Glacier",
  "Harbor",
  "Island",
  "Jetty",
  "Kettle",
  "Lantern",
  "Meadow",
  "Nugget",
  "Orchard",
  "Pebble",
  "Quarry",
  "Ridge",
  "Summit",
  "Thicket",
  "Valley",
  "Willow",
];

const HANDLE_PARTS = [
  "alpha",
  "basis",
  "carry",
  "delta",
  "edge",
  "fade",
  "gamma",
  "hedge",
  "kelly",
  "long",
  "macro",
  "nash",
  "odds",
  "prior",
  "quant",
  "risk",
  "sharp",
  "theta",
  "vega",
  "yield",
  "whale",
  "degen",
  "oracle",
  "signal",
  "tail",
  "bayes",
  "markov",
  "poly",
  "yes",
  "no",
  "moon",
  "bear",
  "bull",
  "fox",
  "owl",
  "wolf",
  "sage",
  "drift",
];

const BIOS = [
  "",
  "",
  "",
  "Forecasting is a craft.",
  "Macro, politics, and the occasional long shot.",
  "Not financial advice.",
  "Building models, losing sleep.",
  "Sports and stats.",
];

export function pseudonym(rng: Rng): string {
  return `${rng.pick(ADJECTIVES)}-${rng.pick(NOUNS)}`;
}

export function handle(rng: Rng): string {
  const a = rng.pick(HANDLE_PARTS);
  switch (rng.int(4)) {
    case 0:
      return `${a}${rng.intBetween(1, 999)}`;
    case 1:
      return `${a}${rng.pick(HANDLE_PARTS)}`;
    case 2:
      return `${a.charAt(0).toUpperCase()}${a.slice(1)}${rng.pick(NOUNS)}`;
    default:
      return `${a}_${rng.pick(NOUNS).toLowerCase()}${rng.intBetween(1, 99)}`;
  }
}

export function bio(rng: Rng): string {
  return rng.pick(BIOS);
}

export const FIRST_NAMES = [
  "Elena",
  "Marcus",
  "Priya",
  "Tomas",
  "Aiko",
  "Rafael",
  "Ingrid",
  "Kofi",
  "Lucia",
  "Dmitri",
  "Hana",
  "Owen",
  "Sofia",
  "Arjun",
  "Mireille",
  "Jonah",
  "Zara",
  "Viktor",
  "Leila",
  "Mateo",
];
export const LAST_NAMES = [
  "Varga",
  "Hale",
  "Okafor",
  "Lindqvist",
  "Moreau",
  "Castellano",
  "Ishida",
  "Brandt",
  "Novak",
  "Adeyemi",
  "Quintero",
  "Falk",
  "Rossi",
  "Whitaker",
  "Demir",
  "Sato",
  "Kowalski",
  "Mendes",
  "Aalto",
  "Reyes",
];

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export const COUNTRIES = [
  "France",
  "Germany",
  "Brazil",
  "Japan",
  "Canada",
  "Poland",
  "Chile",
  "Kenya",
  "Portugal",
  "Romania",
  "South Korea",
  "Mexico",
  "Norway",
  "Argentina",
  "Colombia",
  "Peru",
  "Czechia",
  "Ireland",
];

export const LEAGUES = [
  {
    name: "NBA",
    tag: "nba",
    teams: [
      "Boston Celtics",
      "Denver Nuggets",
      "Milwaukee Bucks",
      "Phoenix Suns",
      "Golden State Warriors",
      "Miami Heat",
      "Dallas Mavericks",
      "New York Knicks",
      "Oklahoma City Thunder",
      "Minnesota Timberwolves",
      "Cleveland Cavaliers",
      "Indiana Pacers",
    ],
  },
  {
    name: "NFL",
    tag: "nfl",
    teams: [
      "Kansas City Chiefs",
      "Buffalo Bills",
      "Philadelphia Eagles",
      "San Francisco 49ers",
      "Detroit Lions",
      "Baltimore Ravens",
      "Green Bay Packers",
      "Houston Texans",
      "Dallas Cowboys",
      "Cincinnati Bengals",
    ],
  },
  {
    name: "Premier League",
    tag: "epl",
    teams: [
      "Arsenal",
      "Liverpool",
      "Manchester City",
      "Chelsea",
      "Tottenham",
      "Newcastle",
      "Aston Villa",
      "Brighton",
      "West Ham",
      "Everton",
    ],
  },
  {
    name: "Champions League",
    tag: "champions-league",
    teams: [
      "Real Madrid",
      "Bayern Munich",
      "Barcelona",
      "Inter Milan",
      "PSG",
      "Benfica",
      "Porto",
      "Atletico Madrid",
      "Dortmund",
      "Napoli",
    ],
  },
] as const;

export const COMPANIES = [
  "OpenAI",
  "Google",
  "Anthropic",
  "xAI",
  "Meta",
  "Mistral",
  "DeepSeek",
  "Apple",
  "Microsoft",
  "Nvidia",
];
export const PRODUCTS = [
  "a new flagship model",
  "an AI device",
  "a reasoning model",
  "a humanoid robot demo",
  "an open-weights model",
  "a video model",
];

export const COINS = [
  { name: "Bitcoin", tag: "bitcoin", spot: 95_000, step: 5_000 },
  { name: "Ethereum", tag: "ethereum", spot: 3_400, step: 200 },
  { name: "Solana", tag: "solana", spot: 180, step: 15 },
  { name: "XRP", tag: "xrp", spot: 2.4, step: 0.2 },
] as const;

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "June 30" for a unix time; "june-30" for slugs. */
export function monthDay(ts: number): string {
  const d = new Date(ts * 1000);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[$,.?'%]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Places of the territory markets: the three towns of the brief and villages around them. */
export const TERRITORY = {
  captureAll: [{ name: "Chasiv Yar", lat: 48.59, lon: 37.84 }],
  capture: [
    { name: "Orikhiv", lat: 47.57, lon: 35.78 },
    { name: "Bakhmut", lat: 48.595, lon: 37.999 },
  ],
  enter: [
    { name: "Ivanivske", lat: 48.578, lon: 37.905 },
    { name: "Klishchiivka", lat: 48.533, lon: 37.975 },
    { name: "Mala Tokmachka", lat: 47.59, lon: 35.86 },
    { name: "Novodanylivka", lat: 47.555, lon: 35.73 },
    { name: "Andriivka", lat: 48.5, lon: 37.96 },
  ],
} as const;
