/**
 * A loopback server speaking the chat-completions protocol (`POST /v1/chat/completions`), for the AI analysis
 * tests: it answers with what `respond` says (a report, a malformed body, an error status, after a delay), counts
 * the requests and the ones in flight, and keeps each request's headers and messages.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    max_tokens?: number;
    temperature?: number;
  };
  /** The wallet_facts JSON of the user message, parsed. */
  facts: Record<string, any>;
}

export interface ChatReply {
  status?: number;
  /** A string is sent as is (text/plain unless `contentType`); anything else as JSON. */
  body: unknown;
  contentType?: string;
  delayMs?: number;
}

export type Responder = (request: ChatRequest) => ChatReply;

export interface ChatServer {
  /** The base URL to configure (AI_MODEL_BASE_URL): http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  requests: ChatRequest[];
  inFlight: number;
  maxInFlight: number;
  respond: Responder;
  close(): Promise<void>;
}

/** A chat completion whose answer is `content`. */
export const completion = (content: string, finishReason = "stop") => ({
  id: "chatcmpl-test",
  object: "chat.completion",
  created: 0,
  model: "test-model",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finishReason }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

/** The wallet_facts block of a prompt, parsed (the prompt escapes <, > and & inside it; JSON.parse reads them back). */
export function factsOf(user: string): Record<string, any> {
  const match = /<wallet_facts>\n([\s\S]*)\n<\/wallet_facts>/.exec(user);
  return match ? (JSON.parse(match[1]!) as Record<string, any>) : {};
}

export async function startChatServer(respond: Responder): Promise<ChatServer> {
  const state = { requests: [] as ChatRequest[], inFlight: 0, maxInFlight: 0, respond };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const body = JSON.parse(raw) as ChatRequest["body"];
      const request = {
        headers: req.headers,
        body,
        facts: factsOf(body.messages.find((m) => m.role === "user")?.content ?? ""),
      };
      state.requests.push(request);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const reply = state.respond(request);
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        state.inFlight--;
        return true;
      };
      const timer = setTimeout(() => {
        if (!settle() || res.destroyed) return;
        const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
        const type = reply.contentType ?? (typeof reply.body === "string" ? "text/plain" : "application/json");
        res.writeHead(reply.status ?? 200, { "content-type": type }).end(text);
      }, reply.delayMs ?? 0);
      res.on("close", () => {
        clearTimeout(timer);
        settle();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as ChatServer;
}
