/**
 * The ceiling of the endpoint benches: a bare Fastify route answering a fixed, pre-serialized JSON body. `/fixed`
 * (any path) answers the 120-byte body; `/bytes/<n>` a body of n bytes, for the ceiling at an answer's size.
 */
import Fastify from "fastify";

const BODY = JSON.stringify({
  wallet: "0x0000000000000000000000000000000000000001",
  total_pnl: 1234.56,
  win_rate: 61.5,
  profit_factor: 2.4,
});

const sized = new Map<number, Buffer>();
const bodyOf = (n: number) => {
  let body = sized.get(n);
  if (!body) sized.set(n, (body = Buffer.from(`"${"x".repeat(Math.max(0, n - 2))}"`)));
  return body;
};

const app = Fastify({ logger: false });
app.get<{ Params: { n: string } }>("/bytes/:n", (request, reply) => {
  void reply.header("content-type", "application/json; charset=utf-8").send(bodyOf(Number(request.params.n)));
});
app.get("/*", (_request, reply) => {
  void reply.header("content-type", "application/json; charset=utf-8").send(BODY);
});
const url = await app.listen({ port: 0, host: "127.0.0.1" });
console.log(url);
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
