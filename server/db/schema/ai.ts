/**
 * AI extraction (migrations/0022_ai_extraction.sql): the runs of the pipeline, every call with
 * its cost, the providers people and owner accounts bring, and the monthly spend per payer.
 * None is synced; app_role reads extractions and calls of its readable locations, nothing else.
 */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { COST_SOURCES, AI_OUTCOMES, PROVIDER_KINDS } from "../../../shared/ai.js";
import { EXTRACTION_MODES, EXTRACTION_STATUSES } from "../../../shared/extractions.js";
import { users } from "./auth.js";
import { idColumn, ts } from "./columns.js";
import { things } from "./inventory.js";
import { accounts, locations } from "./locations.js";
import { purchases } from "./receipts.js";

export const aiSettings = pgTable(
  "ai_settings",
  {
    id: idColumn(),
    scope: text("scope", { enum: ["account", "user"] }).notNull(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    providerKind: text("provider_kind", { enum: PROVIDER_KINDS }).notNull(),
    model: text("model").notNull(),
    /** A person's base URL: checked against internal addresses when stored and on every call. */
    baseUrl: text("base_url"),
    /** AES-256-GCM under the owner account's key (server/db/secret-box.ts); never returned or logged. */
    apiKeySealed: text("api_key_sealed"),
    budgetAmount: numeric("budget_amount", { precision: 15, scale: 6 }),
    budgetCurrency: text("budget_currency"),
    enabled: boolean("enabled").notNull().default(true),
    /** When the provider last refused the stored key (401/403), and its status; null once replaced or accepted. */
    keyRefusedAt: ts("key_refused_at"),
    keyRefusedStatus: integer("key_refused_status"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ai_settings_account_unique")
      .on(t.accountId)
      .where(sql`${t.accountId} IS NOT NULL`),
    uniqueIndex("ai_settings_user_unique")
      .on(t.userId)
      .where(sql`${t.userId} IS NOT NULL`),
    check(
      "ai_settings_scope_owner",
      sql`(${t.scope} = 'account' AND ${t.accountId} IS NOT NULL AND ${t.userId} IS NULL) OR (${t.scope} = 'user' AND ${t.userId} IS NOT NULL AND ${t.accountId} IS NULL)`,
    ),
  ],
);

/**
 * Spend per payer (`instance`, `account:<id>`, `user:<id>`) and month (`YYYY-MM`, UTC). `reserved`
 * holds the estimates of calls in flight; a call settles by moving its estimate into `spent` as
 * its real cost.
 */
export const aiBudgetMonths = pgTable(
  "ai_budget_months",
  {
    payerKey: text("payer_key").notNull(),
    month: text("month").notNull(),
    currency: text("currency").notNull(),
    spent: numeric("spent", { precision: 18, scale: 8 }).notNull().default("0"),
    reserved: numeric("reserved", { precision: 18, scale: 8 }).notNull().default("0"),
  },
  (t) => [primaryKey({ name: "ai_budget_months_pk", columns: [t.payerKey, t.month] })],
);

export const aiCalls = pgTable(
  "ai_calls",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    thingId: uuid("thing_id"),
    extractionId: uuid("extraction_id"),
    /** What the call was for: `extract_thing`, `extract_receipt`. */
    task: text("task").notNull(),
    model: text("model").notNull(),
    providerKind: text("provider_kind", { enum: PROVIDER_KINDS }).notNull(),
    tokensIn: integer("tokens_in").notNull().default(0),
    tokensOut: integer("tokens_out").notNull().default(0),
    tokens: integer("tokens").notNull().default(0),
    images: integer("images").notNull().default(0),
    costAmount: numeric("cost_amount", { precision: 18, scale: 8 }),
    costCurrency: text("cost_currency"),
    costSource: text("cost_source", { enum: COST_SOURCES }).notNull(),
    paidByScope: text("paid_by_scope", { enum: ["instance", "account", "user"] }).notNull(),
    paidByLabel: text("paid_by_label").notNull(),
    payerKey: text("payer_key").notNull(),
    paidByUserId: uuid("paid_by_user_id"),
    paidByAccountId: uuid("paid_by_account_id"),
    outcome: text("outcome", { enum: AI_OUTCOMES }).notNull(),
    errorCode: text("error_code"),
    requestedBy: uuid("requested_by"),
    month: text("month").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("ai_calls_location_month_idx").on(t.locationId, t.month),
    index("ai_calls_payer_month_idx").on(t.payerKey, t.month),
    index("ai_calls_later_idx")
      .on(t.createdAt)
      .where(sql`${t.costSource} = 'price_table_later'`),
  ],
);

export const extractions = pgTable(
  "extractions",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    /** What the run reads: a thing, or a purchase (a receipt); exactly one is set. */
    thingId: uuid("thing_id").references(() => things.id),
    purchaseId: uuid("purchase_id").references(() => purchases.id),
    mode: text("mode", { enum: EXTRACTION_MODES }).notNull().default("thing"),
    /** Calls sent so far (a provider error is retried with backoff). */
    attempt: integer("attempt").notNull().default(0),
    status: text("status", { enum: EXTRACTION_STATUSES }).notNull().default("queued"),
    statusReason: text("status_reason"),
    pausedUntil: ts("paused_until"),
    /** When a worker may claim it next (a retry's backoff, the end of a budget pause). */
    runAfter: ts("run_after").notNull().defaultNow(),
    /** While `running`: the claim ends then, and another worker may take the run (its worker died). */
    leaseUntil: ts("lease_until"),
    model: text("model"),
    fileIds: uuid("file_ids").array().notNull(),
    applied: text("applied")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    callId: uuid("call_id").references(() => aiCalls.id),
    requestedBy: uuid("requested_by"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("extractions_thing_idx").on(t.thingId, t.createdAt),
    index("extractions_purchase_idx")
      .on(t.purchaseId)
      .where(sql`${t.purchaseId} IS NOT NULL`),
    check("extractions_one_target", sql`(${t.thingId} IS NULL) <> (${t.purchaseId} IS NULL)`),
    index("extractions_due_idx")
      .on(t.runAfter)
      .where(sql`${t.status} IN ('queued', 'waiting_provider', 'paused_budget', 'running')`),
  ],
);
