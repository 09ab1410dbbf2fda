/** Settings, part of src/config/index.ts: the MCP server (`/mcp` on the service, and `pelagic mcp` over stdio). */
import { HTTP, bool, int, nameList, optionalStr, optionalUrl } from "../settings.js";

export const mcp = {
  http: bool(
    "MCP_HTTP",
    true,
    "serve the MCP server over Streamable HTTP at POST /mcp (the same keys, plans and rate limits as the API)",
  ),
  pageSize: int(
    "MCP_PAGE_SIZE",
    10,
    "rows a list tool of the MCP server answers when the agent names no limit (an agent reads every byte it is given)",
    { min: 1, max: 100 },
  ),
  maxPageSize: int("MCP_MAX_PAGE_SIZE", 50, "the largest limit a list tool of the MCP server takes", {
    min: 1,
    max: 500,
  }),
  allowedOrigins: nameList(
    "MCP_ALLOWED_ORIGINS",
    "localhost,127.0.0.1,[::1]",
    "host names a browser's Origin header may name on /mcp, against DNS rebinding (403 otherwise; requests without an Origin, as agents send them, are not checked); * allows any",
  ),
  url: optionalUrl(
    "PELAGIC_URL",
    "the Pelagic service `pelagic mcp` answers from (its base URL, through the typed client); unset: the local store (DATA_DIR or DATABASE_URL), read in-process",
    HTTP,
  ),
  apiKey: optionalStr(
    "PELAGIC_API_KEY",
    "the API key `pelagic mcp` calls with (a secret: never logged); Premium tools need a Premium key, free tools none",
  ),
} as const;
