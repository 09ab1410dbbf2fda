/**
 * The answers given below the routes, in the contract's `{"detail": …}` shape like every other error: a request
 * Node's HTTP parser refuses (400, headers too large 431, not whole within HTTP_REQUEST_TIMEOUT_MS 408), a URL
 * that does not decode (400) or a path parameter beyond Fastify's length (414), an `Expect` the service does not
 * meet (417), and any request that arrives while the service is stopping (503, with Retry-After).
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Seconds a client is asked to wait before retrying a request refused because the service is stopping. */
const STOPPING_RETRY_AFTER_SECONDS = 5;

const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, "The URL does not decode: a % must start an escape of two hexadecimal digits"],
  FST_ERR_MAX_PARAM_LENGTH: [414, "A path parameter is too long"],
};

const bodyOf = (detail: string) => JSON.stringify({ detail });

/** What Node's parser refused, as a status and a detail (never the parser's own text). */
function clientErrorAnswer(code: string | undefined, requestTimeoutMs: number): [number, string] {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return [408, `The request did not arrive whole within ${requestTimeoutMs / 1000} s`];
  if (code === "HPE_HEADER_OVERFLOW") return [431, "The request's headers are too large"];
  return [400, "The request is not valid HTTP/1.1"];
}

/** Fastify's `clientErrorHandler` and `frameworkErrors`, answering in the contract's shape. */
export function wireErrorOptions(requestTimeoutMs: number) {
  return {
    clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
      if (error.code === "ECONNRESET" || socket.destroyed) return;
      const [status, detail] = clientErrorAnswer(error.code, requestTimeoutMs);
      const body = bodyOf(detail);
      if (!socket.writable) return void socket.destroy();
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        "Content-Type: application/json; charset=utf-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
      ];
      socket.end(`${head.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
    },
    frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
      const [status, detail] = FRAMEWORK_ERRORS[error.code] ?? [500, "Internal Server Error"];
      void reply.code(status).send({ detail });
    },
  };
}

/** The answers the app gives for requests that reach it but no route: unmet expectations and a stopping service. */
export function registerWireErrors(app: FastifyInstance): void {
  app.server.on("checkExpectation", (_request, response) => {
    const body = bodyOf("Only Expect: 100-continue is supported");
    response.writeHead(417, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    response.end(body);
  });
  let stopping = false;
  app.addHook("preClose", (done) => {
    stopping = true;
    done();
  });
  // Sent as text: a route's own 503 schema (health's) must not be asked to serialize this body.
  const stoppingBody = bodyOf("The service is stopping: retry shortly");
  app.addHook("onRequest", (_request, reply, done) => {
    if (!stopping) return done();
    void reply
      .code(503)
      .headers({
        "content-type": "application/json; charset=utf-8",
        "retry-after": String(STOPPING_RETRY_AFTER_SECONDS),
        connection: "close",
      })
      .send(stoppingBody);
  });
}
