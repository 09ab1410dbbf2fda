/**
 * Route schemas compiled once per process, however many apps it builds. Fastify compiles every route's request
 * validators (Ajv) and response serializers (fast-json-stringify) afresh for each app: about 0.5 s of processor time
 * an app, paid again by each app a test file, a bench or `pelagic demo` builds in one process. Here a compiled
 * function is kept under its schema's text (and the shared schemas' and options' text it was compiled with), so an
 * app whose schemas equal an earlier app's reuses its functions. Both are pure functions of their schema: a
 * validator's `errors` are read by Fastify right after its synchronous call, before another request can run it.
 * One app per process (the service) compiles each schema once, as before. Why: docs/decisions.md ("CI time").
 */
import AjvCompiler, { type ValidatorFactory } from "@fastify/ajv-compiler";
import { type SerializerFactory, SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import { roundingFor } from "./rounding.js";
import { constUnionsAsTypes } from "./const-unions.js";

// biome-ignore lint/suspicious/noExplicitAny: any factory of Fastify's shape (the libraries type their own)
type Factory = (externalSchemas: any, options: any) => (route: { schema?: unknown }) => unknown;

/** `factory` with what it compiles kept per (shared schemas, options) and route schema, for the process's life. */
function keptPerProcess<F>(factory: F): F {
  const compile = factory as Factory;
  const compiledBySet = new Map<string, Map<string, unknown>>();
  const kept: Factory = (externalSchemas, options) => {
    // The factory's own per-app work (Ajv's instance, the shared schemas' rewrite) only when a schema is new.
    let compileRoute: ReturnType<Factory> | undefined;
    const set = JSON.stringify([externalSchemas, options]);
    let compiled = compiledBySet.get(set);
    if (!compiled) compiledBySet.set(set, (compiled = new Map()));
    const bySchema = compiled;
    return (route) => {
      const key = JSON.stringify(route.schema);
      if (!bySchema.has(key)) {
        compileRoute ??= compile(externalSchemas, options);
        bySchema.set(key, compileRoute(route));
      }
      return bySchema.get(key);
    };
  };
  return kept as F;
}

/** Fastify's own validator compiler (Ajv, one instance per shared-schema set and options), compiled once per schema. */
export const processValidators: ValidatorFactory = keptPerProcess(AjvCompiler());

const fastJson = SerializerSelector();

/** Fastify's own serializer compiler (fast-json-stringify), compiled once per schema. */
export const processSerializers: SerializerFactory = keptPerProcess(fastJson);

/**
 * The serializers of ROUND_NUMBERS: Fastify's, with the shared schemas' unions of constants written by type
 * (src/api/const-unions.ts), each route's preceded by its schema's rounding walk (src/api/rounding.ts).
 */
export const roundingSerializers: SerializerFactory = keptPerProcess<SerializerFactory>((externalSchemas, options) => {
  const compile = fastJson(constUnionsAsTypes(externalSchemas), options);
  return (route) => {
    const serialize = compile({ ...route, schema: constUnionsAsTypes(route.schema) });
    const round = roundingFor(route.schema);
    return round ? (data: unknown) => serialize(round(data)) : serialize;
  };
});
