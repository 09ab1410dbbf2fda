/** The venue's payload shapes (TypeBox schemas written from the venue's documented and recorded payloads) and their normalizers. */
export * from "./shape.js";
export * from "./gamma.js";
export * from "./data-api.js";
export * from "./rtds.js";
export * from "./json-rpc.js";
export * from "./arcgis.js";
export * from "./normalize-gamma.js";
export * from "./normalize-wallet-data.js";
