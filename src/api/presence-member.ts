/**
 * Who a presence ping (wallet page, home page) counts as: the session the client names in the X-Service-Session
 * header, else its IP. Sessions and addresses live in separate namespaces (`s:` and `ip:`), so no header counts
 * as an address: `X-Service-Session: ip:127.0.0.1` is the session `s:ip:127.0.0.1`, never `ip:127.0.0.1`.
 */
import type { FastifyRequest } from "fastify";
import { Type } from "typebox";

export const SessionHeaders = Type.Object({
  "x-service-session": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "session id (a tab of the page); absent: the client IP is the session",
    }),
  ),
});

export function presenceMember(request: FastifyRequest): string {
  const session = request.headers["x-service-session"];
  return typeof session === "string" && session ? `s:${session}` : `ip:${request.ip}`;
}
