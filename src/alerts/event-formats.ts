/**
 * An alert about something other than a trade written for a chat: a territory monitor's event (the city, the event
 * and its severity, the subscription, the details, a link to the territory page) or a market's consensus that
 * changed side (the market, the sides, the whales on each, a link to the market page), or a bet that reached an
 * insider score (the wallet, the market and side, the score, a link to the wallet page). A webhook gets the alert as
 * data (formatters.ts).
 */
import type { AlertEvent } from "./alert-event.js";
import type { DestinationSecrets } from "./destinations.js";
import {
  discordRequest,
  escapeHtml,
  slackRequest,
  telegramRequest,
  type OutgoingRequest,
} from "./platform-requests.js";
import type { DestinationKind } from "./tables.js";

const COLOURS: Readonly<Record<string, number>> = {
  SAFE: 0x2e_cc_71,
  LOW: 0xf1_c4_0f,
  MEDIUM: 0xe6_7e_22,
  HIGH: 0xe7_4c_3c,
  CRITICAL: 0x99_2d_22,
  YES: 0x2e_cc_71,
  NO: 0xe7_4c_3c,
};

interface Described {
  readonly title: string;
  readonly heading: string;
  readonly details: string;
  readonly link: string | null;
  readonly linkText: string;
  readonly colour: number;
  readonly when: string;
}

function describe(event: AlertEvent): Described {
  const prefix = `${event.test ? "[test] " : ""}${event.rule?.name ?? "Pelagic"}`;
  const { territory, consensus, insider } = event;
  if (territory)
    return {
      title: `${prefix}: ${territory.event_type} in ${territory.city} (${territory.severity})`,
      heading: territory.subscription_label,
      details: territory.details,
      link: event.links.territory ?? null,
      linkText: "Territory map",
      colour: COLOURS[territory.severity] ?? 0x95_a5_a6,
      when: new Date(territory.created_at * 1_000).toISOString(),
    };
  if (insider)
    return {
      title: `${prefix}: insider score ${insider.score.toFixed(0)} on ${insider.outcome}`,
      heading: insider.market_question ?? insider.condition_id,
      details: `${insider.wallet} bought $${Math.round(insider.bet_usd).toLocaleString("en-US")} at ${insider.avg_price.toFixed(3)} (confidence ${insider.confidence.toFixed(2)}${insider.cluster_id ? `, funding cluster ${insider.cluster_id}` : ""})`,
      link: event.links.wallet,
      linkText: "Wallet page",
      colour: COLOURS[insider.outcome]!,
      when: new Date(insider.last_ts * 1_000).toISOString(),
    };
  const c = consensus!;
  return {
    title: `${prefix}: Smart Money consensus flipped ${c.from} → ${c.to}`,
    heading: c.market_question ?? c.condition_id,
    details: `${c.whales_yes} whales on YES, ${c.whales_no} on NO`,
    link: event.links.market,
    linkText: "Market page",
    colour: COLOURS[c.to]!,
    when: new Date(c.at * 1_000).toISOString(),
  };
}

export function formatEventAlert(
  kind: Exclude<DestinationKind, "webhook">,
  event: AlertEvent,
  secrets: DestinationSecrets,
  input: { telegramApiUrl: string },
): OutgoingRequest {
  const d = describe(event);
  switch (kind) {
    case "telegram":
      return telegramRequest(
        input.telegramApiUrl,
        secrets,
        [
          `<b>${escapeHtml(d.title)}</b>`,
          escapeHtml(d.heading),
          escapeHtml(d.details),
          d.link ? `<a href="${escapeHtml(d.link)}">${d.linkText}</a>` : "",
          `<i>${d.when}</i>`,
        ]
          .filter((line) => line !== "")
          .join("\n"),
      );
    case "discord":
      return discordRequest(secrets, {
        title: d.title.slice(0, 256),
        ...(d.link ? { url: d.link } : {}),
        description: `${d.heading}\n${d.details}`.slice(0, 4_000),
        color: d.colour,
        timestamp: d.when,
        footer: { text: "Pelagic" },
      });
    case "slack":
      return slackRequest(secrets, d.title, [
        { type: "header", text: { type: "plain_text", text: d.title.slice(0, 150) } },
        {
          type: "section",
          text: {
            type: "mrkdwn",
            text: `*${escapeHtml(d.heading)}*\n${escapeHtml(d.details)}${d.link ? `\n<${d.link}|${d.linkText}>` : ""}`,
          },
        },
        { type: "context", elements: [{ type: "mrkdwn", text: `Pelagic · ${d.when}` }] },
      ]);
  }
}
