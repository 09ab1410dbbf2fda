/** Polygon JSON-RPC payloads: request, response, error, log and block (only the fields Pelagic reads). */
import { Type, type Static } from "typebox";
import { Hex32, HexAddress, HexData, HexQuantity, Maybe, defineShape } from "./shape.js";

const RpcId = Type.Union([Type.Integer(), Type.String(), Type.Null()]);

export const JsonRpcRequestSchema = Type.Object({
  jsonrpc: Type.Literal("2.0"),
  id: RpcId,
  method: Type.String(),
  params: Maybe(Type.Array(Type.Unknown())),
});

export const JsonRpcErrorSchema = Type.Object({
  code: Type.Integer(),
  message: Type.String(),
  data: Type.Optional(Type.Unknown()),
});

/** A response carries exactly one of `result` and `error`; the client checks which. */
export const JsonRpcResponseSchema = Type.Object({
  jsonrpc: Type.Literal("2.0"),
  id: RpcId,
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(JsonRpcErrorSchema),
});

export const RpcLogSchema = Type.Object({
  address: HexAddress,
  topics: Type.Array(Hex32, { maxItems: 4 }),
  data: HexData,
  blockNumber: HexQuantity,
  blockHash: Maybe(Hex32),
  transactionHash: Hex32,
  transactionIndex: Maybe(HexQuantity),
  logIndex: HexQuantity,
  removed: Maybe(Type.Boolean()),
});

export const RpcBlockSchema = Type.Object({
  number: HexQuantity,
  hash: Hex32,
  parentHash: Hex32,
  timestamp: HexQuantity,
});

export const RpcLogsSchema = Type.Array(RpcLogSchema);

export type JsonRpcRequest = Static<typeof JsonRpcRequestSchema>;
export type JsonRpcErrorObject = Static<typeof JsonRpcErrorSchema>;
export type JsonRpcResponse = Static<typeof JsonRpcResponseSchema>;
export type RpcLog = Static<typeof RpcLogSchema>;
export type RpcBlock = Static<typeof RpcBlockSchema>;

export const JsonRpcRequestShape = defineShape("json-rpc request", JsonRpcRequestSchema);
export const JsonRpcResponseShape = defineShape("json-rpc response", JsonRpcResponseSchema);
export const RpcLogShape = defineShape("json-rpc log", RpcLogSchema);
export const RpcLogsShape = defineShape("eth_getLogs result", RpcLogsSchema);
export const RpcBlockShape = defineShape("eth_getBlockByNumber result", RpcBlockSchema);
