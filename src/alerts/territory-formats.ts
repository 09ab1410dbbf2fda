/**
 * A territory monitor's event written for a chat: the city, the event and its severity, the subscription, the
 * details, and a link to the dashboard's territory page. (A webhook gets the event as data: formatters.ts.)
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

const SEVERITY_COLOURS: Readonly<Record<string, number>> = {
  SAFE: 0x2e_cc_71,
  LOW: 0xf1_c4_0f,
  MEDIUM: 0xe6_7e_22,
  HIGH: 0xe7_4c_3c,
  CRITICAL: 0x99_2d_22,
};

export function formatTerritory(
  kind: Exclude<DestinationKind, "webhook">,
  event: AlertEvent,
  secrets: DestinationSecrets,
  input: { telegramApiUrl: string },
): OutgoingRequest {
  const facts = event.territory!;
  const title = `${event.test ? "[test] " : ""}${event.rule?.name ?? "Pelagic territory"}: ${facts.event_type} in ${facts.city} (${facts.severity})`;
  const when = new Date(facts.created_at * 1_000).toISOString();
  const link = event.links.territory ?? null;
  switch (kind) {
    case "telegram":
      return telegramRequest(
        input.telegramApiUrl,
        secrets,
        [
          `<b>${escapeHtml(title)}</b>`,
          escapeHtml(facts.subscription_label),
          escapeHtml(facts.details),
          link ? `<a href="${escapeHtml(link)}">Territory map</a>` : "",
          `<i>${when}</i>`,
        ]
          .filter((line) => line !== "")
          .join("\n"),
      );
    case "discord":
      return discordRequest(secrets, {
        title: title.slice(0, 256),
        ...(link ? { url: link } : {}),
        description: `${facts.subscription_label}\n${facts.details}`.slice(0, 4_000),
        color: SEVERITY_COLOURS[facts.severity] ?? 0x95_a5_a6,
        timestamp: when,
        footer: { text: "Pelagic" },
      });
    case "slack":
      return slackRequest(secrets, title, [
        { type: "header", text: { type: "plain_text", text: title.slice(0, 150) } },
        {
          type: "section",
          text: {
            type: "mrkdwn",
            text: `*${escapeHtml(facts.subscription_label)}*\n${escapeHtml(facts.details)}${link ? `\n<${link}|Territory map>` : ""}`,
          },
        },
        { type: "context", elements: [{ type: "mrkdwn", text: `Pelagic · ${when}` }] },
      ]);
  }
}
