/**
 * `/api/v2/alerts/rules[/{rule_id}[/pause|/resume]]` (Premium, X-API-Key): what an account wants to hear. A rule's
 * kind fixes which filters it takes (src/alerts/rule-kinds.ts); a filter that breaks its kind's rule is a 422
 * naming it. At most ALERTS_RULES_PER_ACCOUNT rules per account.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { createRule, deleteRule, listRules, readRule, updateRule, type Rule } from "../../../alerts/rules.js";
import { access } from "../../access.js";
import { notFound } from "../../errors.js";
import type { AlertRoutesContext } from "./alert-routes-context.js";
import {
  DeletedBody,
  NoQuery,
  RuleBody,
  RuleCreateBody,
  RuleListBody,
  RuleParams,
  RulePatchBody,
} from "./alert-schemas.js";

const TAGS = ["alerts"];

function ruleBody(rule: Rule) {
  const { id, name, kind, filters, destination_ids, status, created_at, updated_at, webhook_format } = rule;
  const { wallets, markets, categories, side, min_usd, min_points, window_minutes, cities, min_severity, min_score } =
    filters;
  return {
    id,
    name,
    kind,
    filters: {
      wallets: [...wallets],
      markets: [...markets],
      categories: [...categories],
      side,
      min_usd,
      min_points,
      window_minutes,
      cities: [...cities],
      min_severity,
      min_score,
    },
    destination_ids: [...destination_ids],
    status,
    created_at,
    updated_at,
    webhook_format,
  };
}

export const alertRuleRoutes: FastifyPluginAsyncTypebox<AlertRoutesContext> = async (app, alerts) => {
  const { store, clock, settings, accountOf } = alerts;
  const missing = (id: number) => notFound(`No alert rule ${id} in this account`);

  app.post(
    "/api/v2/alerts/rules",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Add an alert rule",
        description:
          "Alerts are produced from the fills the ingest stores, once per (rule, destination, trade), and delivered to the rule's destinations. " +
          "422 names the filter that does not fit the kind.",
        tags: TAGS,
        querystring: NoQuery,
        body: RuleCreateBody,
        response: { 201: RuleBody },
      },
    },
    async (request, reply) => {
      const { filters = {}, ...rest } = request.body;
      const rule = await createRule(store, {
        account: accountOf(request),
        rule: { ...rest, filters },
        now: clock.now(),
        settings,
      });
      reply.code(201);
      return ruleBody(rule);
    },
  );

  app.get(
    "/api/v2/alerts/rules",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "The account's alert rules",
        tags: TAGS,
        querystring: NoQuery,
        response: { 200: RuleListBody },
      },
    },
    async (request) => {
      const rules = await listRules(store, accountOf(request));
      return { rules: rules.map(ruleBody), count: rules.length };
    },
  );

  app.get(
    "/api/v2/alerts/rules/:rule_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "One alert rule",
        tags: TAGS,
        params: RuleParams,
        querystring: NoQuery,
        response: { 200: RuleBody },
      },
    },
    async (request) => {
      const id = request.params.rule_id;
      const rule = await readRule(store, accountOf(request), id);
      if (!rule) throw missing(id);
      return ruleBody(rule);
    },
  );

  const change = async (account: string, id: number, body: Parameters<typeof updateRule>[1]["change"]) => {
    const rule = await updateRule(store, { account, id, change: body, now: clock.now(), settings });
    if (!rule) throw missing(id);
    return ruleBody(rule);
  };

  app.patch(
    "/api/v2/alerts/rules/:rule_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Change an alert rule",
        description: "What the body names changes; filters are replaced whole, checked against the rule's kind.",
        tags: TAGS,
        params: RuleParams,
        querystring: NoQuery,
        body: RulePatchBody,
        response: { 200: RuleBody },
      },
    },
    async (request) => change(accountOf(request), request.params.rule_id, request.body),
  );

  for (const [action, paused] of [
    ["pause", true],
    ["resume", false],
  ] as const) {
    app.post(
      `/api/v2/alerts/rules/:rule_id/${action}`,
      {
        config: { access: access.premiumXApiKey },
        schema: {
          summary: paused ? "Pause an alert rule" : "Resume a paused alert rule",
          description: paused
            ? "A paused rule produces no alerts (trades meanwhile are not alerted later); its queued deliveries still go."
            : "Trades from now on are alerted again.",
          tags: TAGS,
          params: RuleParams,
          querystring: NoQuery,
          response: { 200: RuleBody },
        },
      },
      async (request) => change(accountOf(request), request.params.rule_id, { paused }),
    );
  }

  app.delete(
    "/api/v2/alerts/rules/:rule_id",
    {
      config: { access: access.premiumXApiKey },
      schema: {
        summary: "Delete an alert rule",
        description: "Its pending deliveries are cancelled.",
        tags: TAGS,
        params: RuleParams,
        querystring: NoQuery,
        response: { 200: DeletedBody },
      },
    },
    async (request) => {
      const id = request.params.rule_id;
      if (!(await deleteRule(store, accountOf(request), id, clock.nowMs()))) throw missing(id);
      return { status: "deleted" as const, id };
    },
  );
};
