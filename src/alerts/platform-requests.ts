/**
 * The requests each chat platform takes, whatever the alert says: Telegram's `sendMessage` (HTML), a Discord webhook's
 * embed, a Slack incoming webhook's text and blocks (formatters.ts and event-formats.ts write what they carry).
 */
import type { DestinationSecrets } from "./destinations.js";

export interface OutgoingRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const JSON_HEADERS = { "content-type": "application/json" };

/** The Bot API's sendMessage of an HTML text. */
export function telegramRequest(apiUrl: string, secrets: DestinationSecrets, text: string): OutgoingRequest {
  return {
    url: new URL(`${apiUrl.replace(/\/+$/, "")}/bot${secrets.bot_token}/sendMessage`),
    headers: JSON_HEADERS,
    body: JSON.stringify({ chat_id: secrets.chat_id, text, parse_mode: "HTML", disable_web_page_preview: true }),
  };
}

/** A Discord webhook's message of one embed, mentioning nobody. */
export function discordRequest(secrets: DestinationSecrets, embed: object): OutgoingRequest {
  return {
    url: new URL(secrets.url!),
    headers: JSON_HEADERS,
    body: JSON.stringify({ username: "Pelagic", embeds: [embed], allowed_mentions: { parse: [] } }),
  };
}

/** A Slack incoming webhook's message: the text notifications show, and the blocks. */
export function slackRequest(secrets: DestinationSecrets, text: string, blocks: object[]): OutgoingRequest {
  return { url: new URL(secrets.url!), headers: JSON_HEADERS, body: JSON.stringify({ text, blocks }) };
}
