/**
 * How the venue writes values: micro-units as plain decimal numbers, Gamma's JSON-encoded string lists and
 * its two time formats, and the display fields (market, profile) repeated on every Data API and RTDS row.
 */
import type { World } from "../world/index.js";
import { OUTCOME_NAMES } from "../world/index.js";

/** Micro-units as the decimal the venue writes (shortest round-tripping number, so toMicro reads back exactly). */
export function decimal(micro: number): number {
  return micro / 1_000_000;
}

/** A price as Gamma's outcomePrices writes it: "0.535", "1", "0", "0.5". */
export function priceString(micro: number): string {
  return String(micro / 1_000_000);
}

/** Gamma's JSON-encoded string lists, spelled as the venue spells them: `["Yes", "No"]`. */
export function jsonList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
}

/** ISO 8601 without milliseconds: `2026-06-30T12:00:00Z`. */
export function isoTime(ts: number): string {
  return new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Gamma's `closedTime` spelling: `2026-09-24 14:02:16+00`. */
export function postgresTime(ts: number): string {
  return `${isoTime(ts).slice(0, 19).replace("T", " ")}+00`;
}

export function isoDate(ts: number): string {
  return isoTime(ts).slice(0, 10);
}

/** The profile fields every Data API and RTDS row repeats about its wallet. */
export function profileFields(world: World, w: number) {
  const wallet = world.wallets[w]!;
  return {
    name: wallet.name,
    pseudonym: wallet.pseudonym,
    bio: wallet.bio,
    profileImage: wallet.profileImage,
    profileImageOptimized: wallet.profileImage,
  };
}

/** The market fields every Data API and RTDS row repeats about its market and outcome. */
export function marketFields(world: World, m: number, outcome: number | null) {
  const market = world.markets[m]!;
  return {
    title: market.question,
    slug: market.slug,
    icon: market.image,
    eventSlug: world.events[market.eventIndex]!.slug,
    outcome: outcome === null ? "" : OUTCOME_NAMES[outcome as 0 | 1],
  };
}

/** The Gamma `category` string of one of the world's categories ("SPORTS" → "Sports"). */
export function categoryLabel(category: string): string {
  return category.charAt(0) + category.slice(1).toLowerCase();
}
