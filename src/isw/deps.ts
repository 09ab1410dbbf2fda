/**
 * What the territory monitor uses from the store and the venue clients, imported here and nowhere else in
 * src/isw/: when those folders move files around, this is the one file of the monitor to update.
 */
export type { Database } from "../store/schema.js";
export type { Store } from "../store/database.js";
export { recordSourceError, saveCheckpoint } from "../store/checkpoints.js";
export { ArcGisClient } from "../venue/arcgis.js";
export { VenueUnavailableError, parseRetryAfter } from "../venue/http.js";
export type { GeoJsonFeature } from "../venue/shapes/arcgis.js";
