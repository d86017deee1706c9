/**
 * Configuration from the environment, validated once at start-up. Every variable is listed in the
 * table in docs/admin/configuration.md; an invalid value stops the server with a message naming it.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import { z } from "zod";
import { providerKindSchema, type ProviderKind } from "../shared/ai.js";
import type { AiBudget } from "../shared/ai-settings.js";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .optional()
  .transform((v) => v !== undefined && ["1", "true", "yes", "on"].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  SVC_DATA_DIR: z.string().default("./data"),
  SVC_CLIENT_DIR: z.string().default("./dist/client"),
  DATABASE_URL: z.string().url().optional(),
  SVC_PUBLIC_URL: z.string().url().optional(),
  SVC_SIGNUP_OPEN: flag,
  SVC_TRUSTED_PROXIES: z.string().default(""),
  SVC_SECRET: z.string().min(32, "SVC_SECRET must be at least 32 characters").optional(),
  SVC_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SVC_ELECTRIC_URL: z.string().url().optional(),
  SVC_ELECTRIC_SECRET: z.string().optional(),
  SVC_UNDO_WINDOW_MINUTES: z.coerce.number().int().min(1).max(10080).default(15),
  SVC_SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  SVC_SYNC_TOMBSTONE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SVC_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SVC_SMTP_URL must be an smtp:// or smtps:// URL")
    .optional(),
  SVC_MAIL_FROM: z.string().min(3).optional(),
  SVC_OIDC_ISSUER: z.string().url().optional(),
  SVC_OIDC_CLIENT_ID: z.string().min(1).optional(),
  SVC_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  SVC_SOCIAL_CLIENT_ID: z.string().min(1).optional(),
  SVC_SOCIAL_CLIENT_SECRET: z.string().min(1).optional(),
  SVC_SOCIAL_ISSUER: z.string().url().default("https://accounts.google.com"),
  SVC_OAUTH_ALLOW_LOOPBACK_CLIENTS: flag,
  SVC_S3_ENDPOINT: z.string().url().optional(),
  SVC_S3_BUCKET: z.string().min(3).max(63).optional(),
  SVC_S3_REGION: z.string().min(1).default("us-east-1"),
  SVC_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  SVC_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  SVC_S3_FORCE_PATH_STYLE: flag,
  SVC_AI_PROVIDER: providerKindSchema.optional(),
  SVC_AI_MODEL: z.string().min(1).max(200).optional(),
  SVC_AI_API_KEY: z.string().min(1).optional(),
  SVC_AI_BASE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, "SVC_AI_BASE_URL must be an http:// or https:// URL")
    .optional(),
  // US dollars, as the price table and the providers' reported costs are.
  SVC_AI_MONTHLY_BUDGET: z
    .string()
    .regex(/^\d{1,9}(\.\d{1,6})?$/, "SVC_AI_MONTHLY_BUDGET must be a decimal amount in USD, e.g. 25 or 12.50")
    .optional(),
  // Tests only: a base URL entered in AI settings may be loopback over http (the provider stand-ins).
  // Never set in production: it lets a person make the server call its own host.
  SVC_AI_ALLOW_LOOPBACK: flag,
  // How long a worker holds an extraction it claimed; a run whose worker died is taken again after it.
  SVC_AI_LEASE_SECONDS: z.coerce.number().min(1).max(3600).default(180),
  // Extractions this process runs at once; 0: this process runs none (another replica does).
  SVC_AI_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(2),
  // Tests only: web push endpoints on loopback over http (the in-process push-service stand-in).
  // Never set in production: it lets a subscription make the server call its own host.
  SVC_PUSH_ALLOW_LOOPBACK: flag,
  SVC_WEBHOOKS_ALLOW_LOOPBACK: flag,
  SVC_PUSH_BURST_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  SVC_VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^B[A-Za-z0-9_-]{86}$/, "SVC_VAPID_PUBLIC_KEY must be a base64url P-256 public key (as web-push generate-vapid-keys prints)")
    .optional(),
  SVC_VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "SVC_VAPID_PRIVATE_KEY must be a base64url 32-byte key")
    .optional(),
  SVC_VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, "SVC_VAPID_SUBJECT must be a mailto: or https:// URL")
    .optional(),
});

/** S3-compatible object storage for uploaded files (SVC_S3_*), shared by every replica. */
export interface S3Config {
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Unset: the AWS SDK's default credential chain (AWS_* variables, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** bucket in the path (http://host/bucket/key), as most self-hosted S3-compatible servers want. */
  forcePathStyle: boolean;
}

/** The instance's own AI provider (SVC_AI_*): pays for calls as paidBy scope `instance`. Trusted: no address guard. */
export interface InstanceAiConfig {
  kind: ProviderKind;
  model: string;
  /** A secret: never logged, never returned. */
  apiKey: string | undefined;
  baseUrl: string | undefined;
  /** SVC_AI_MONTHLY_BUDGET (USD): what the instance spends per calendar month (UTC) at most; unset: no limit. */
  monthlyBudget?: AiBudget | undefined;
}

/** An OpenID provider people may sign in with (spec "Ways to sign in": OIDC, social sign-in). */
export interface OAuthProviderConfig {
  id: "oidc" | "social";
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  prompt?: "select_account";
}

/** The server's VAPID identity (RFC 8292): push services know our notifications by this key. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  /** A contact for the push service's operator: mailto: or https:. */
  subject: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The built web app (Vite output) served at `/`; absent: the API runs without it. */
  clientDir: string;
  databaseUrl: string | undefined;
  publicUrl: URL;
  /** True when SVC_PUBLIC_URL is https: Secure cookies with the __Secure- prefix, long sessions. */
  secure: boolean;
  signupOpen: boolean;
  /** Value for Express's "trust proxy": false, or the list of trusted proxy addresses/subnets. */
  trustedProxies: false | string[];
  secret: string;
  logLevel: z.infer<typeof envSchema>["SVC_LOG_LEVEL"];
  undoWindowMs: number;
  /** How long a resolved session may be remembered in this process (0: never). */
  sessionCacheMs: number;
  /**
   * SVC_SYNC_TOMBSTONE_DAYS: how long the change log keeps a delete (sync/SPEC.md SH10). A device
   * that last synced longer ago refetches its shapes; its outbox is kept.
   */
  syncTombstoneMs: number;
  /** A real Electric sync service to proxy shapes to (sync/SPEC.md SH8); unset: shapes served here. */
  electricUrl: URL | undefined;
  electricSecret: string | undefined;
  /** Outgoing mail: SMTP when set; otherwise each mail is written under dataDir/mail and logged. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Providers configured by SVC_OIDC_* and SVC_SOCIAL_*. */
  oauthProviders: OAuthProviderConfig[];
  /** The configured providers whose discovery worked at start-up (server/auth/providers.ts); only these are offered. */
  signInProviders: OAuthProviderConfig[];
  /** Tests only: client metadata documents may be fetched from loopback (over http). Never in production. */
  oauthAllowLoopbackClients: boolean;
  /** Where uploaded files live: this bucket when set, otherwise dataDir/files on this machine's disk. */
  s3: S3Config | undefined;
  /** SVC_AI_*; unset: the instance pays for no AI calls (accounts and users may bring their own). */
  ai: InstanceAiConfig | undefined;
  /** Tests only (SVC_AI_ALLOW_LOOPBACK): AI base URLs people enter may be loopback over http. Never in production. */
  aiAllowLoopback: boolean;
  /** Web push: the VAPID keys (SVC_VAPID_*, else generated once into dataDir/vapid.json). */
  vapid: VapidConfig;
  /** SVC_AI_LEASE_SECONDS: an extraction's claim; longer than a call's deadline (60 s) plus its bookkeeping. */
  aiLeaseMs: number;
  /** SVC_AI_CONCURRENCY: extractions this process runs at once (0: none here). */
  aiConcurrency: number;
  /** Tests only (SVC_PUSH_ALLOW_LOOPBACK): push endpoints may be loopback over http. Never in production. */
  pushAllowLoopback: boolean;
  /** New inbox items of a location within this quiet time make one notification, not one each. */
  pushBurstMs: number;
  /** Tests only (SVC_WEBHOOKS_ALLOW_LOOPBACK): webhook URLs may be loopback over http. Never in production. */
  webhooksAllowLoopback: boolean;
}

/** The server secret: SVC_SECRET, else one generated once and kept in the data directory. */
function loadSecret(given: string | undefined, dataDir: string): string {
  if (given) return given;
  const file = path.join(dataDir, "secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

function instanceAi(e: z.infer<typeof envSchema>): InstanceAiConfig | undefined {
  const fail = (names: string, why: string) => new Error(`Invalid configuration:\n  ${names}: ${why}`);
  if (!e.SVC_AI_PROVIDER) {
    if (e.SVC_AI_MODEL ?? e.SVC_AI_API_KEY ?? e.SVC_AI_BASE_URL ?? e.SVC_AI_MONTHLY_BUDGET)
      throw fail("SVC_AI_PROVIDER", "needed with the other SVC_AI_* variables");
    return undefined;
  }
  if (!e.SVC_AI_MODEL) throw fail("SVC_AI_MODEL", "needed with SVC_AI_PROVIDER");
  if (e.SVC_AI_PROVIDER === "compatible_api" && !e.SVC_AI_BASE_URL) throw fail("SVC_AI_BASE_URL", "needed with SVC_AI_PROVIDER=compatible_api");
  if (e.SVC_AI_PROVIDER !== "compatible_api" && !e.SVC_AI_API_KEY) throw fail("SVC_AI_API_KEY", `needed with SVC_AI_PROVIDER=${e.SVC_AI_PROVIDER}`);
  const budget = e.SVC_AI_MONTHLY_BUDGET ? { monthlyBudget: { amount: e.SVC_AI_MONTHLY_BUDGET, currency: "USD" } } : {};
  return { kind: e.SVC_AI_PROVIDER, model: e.SVC_AI_MODEL, apiKey: e.SVC_AI_API_KEY, baseUrl: e.SVC_AI_BASE_URL, ...budget };
}

/** VAPID keys: both from the environment, else a pair generated once and kept in the data directory. */
function loadVapidKeys(e: z.infer<typeof envSchema>, dataDir: string): { publicKey: string; privateKey: string } {
  if (e.SVC_VAPID_PUBLIC_KEY && e.SVC_VAPID_PRIVATE_KEY) return { publicKey: e.SVC_VAPID_PUBLIC_KEY, privateKey: e.SVC_VAPID_PRIVATE_KEY };
  if (e.SVC_VAPID_PUBLIC_KEY || e.SVC_VAPID_PRIVATE_KEY)
    throw new Error("Invalid configuration:\n  SVC_VAPID_PUBLIC_KEY, SVC_VAPID_PRIVATE_KEY: set both or neither");
  const file = path.join(dataDir, "vapid.json");
  try {
    const kept = JSON.parse(readFileSync(file, "utf8")) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === "string" && typeof kept.privateKey === "string") return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    throw new Error(`Invalid ${file}: remove it to have new VAPID keys made (subscribed devices must then subscribe again)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
  return keys;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.SVC_PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const proxies = e.SVC_TRUSTED_PROXIES.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const dataDir = path.resolve(e.SVC_DATA_DIR);
  const oauthProviders: OAuthProviderConfig[] = [];
  if (e.SVC_OIDC_ISSUER) {
    if (!e.SVC_OIDC_CLIENT_ID) throw new Error("Invalid configuration:\n  SVC_OIDC_CLIENT_ID: needed with SVC_OIDC_ISSUER");
    oauthProviders.push({ id: "oidc", issuer: e.SVC_OIDC_ISSUER, clientId: e.SVC_OIDC_CLIENT_ID, clientSecret: e.SVC_OIDC_CLIENT_SECRET });
  }
  if (e.SVC_SOCIAL_CLIENT_ID && e.SVC_SOCIAL_CLIENT_SECRET) {
    const social = { id: "social" as const, issuer: e.SVC_SOCIAL_ISSUER, clientId: e.SVC_SOCIAL_CLIENT_ID, clientSecret: e.SVC_SOCIAL_CLIENT_SECRET };
    oauthProviders.push({ ...social, prompt: "select_account" });
  }
  const s3Set = [e.SVC_S3_ENDPOINT, e.SVC_S3_ACCESS_KEY_ID, e.SVC_S3_SECRET_ACCESS_KEY].some((v) => v !== undefined);
  if (s3Set && !e.SVC_S3_BUCKET) throw new Error("Invalid configuration:\n  SVC_S3_BUCKET: needed with the other SVC_S3_* variables");
  if (!e.SVC_S3_ACCESS_KEY_ID !== !e.SVC_S3_SECRET_ACCESS_KEY)
    throw new Error("Invalid configuration:\n  SVC_S3_ACCESS_KEY_ID, SVC_S3_SECRET_ACCESS_KEY: set both or neither");
  const s3: S3Config | undefined = e.SVC_S3_BUCKET
    ? {
        endpoint: e.SVC_S3_ENDPOINT,
        bucket: e.SVC_S3_BUCKET,
        region: e.SVC_S3_REGION,
        credentials:
          e.SVC_S3_ACCESS_KEY_ID && e.SVC_S3_SECRET_ACCESS_KEY
            ? { accessKeyId: e.SVC_S3_ACCESS_KEY_ID, secretAccessKey: e.SVC_S3_SECRET_ACCESS_KEY }
            : undefined,
        forcePathStyle: e.SVC_S3_FORCE_PATH_STYLE,
      }
    : undefined;
  const ai = instanceAi(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    clientDir: path.resolve(e.SVC_CLIENT_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    secure: publicUrl.protocol === "https:",
    signupOpen: e.SVC_SIGNUP_OPEN,
    trustedProxies: proxies.length ? proxies : false,
    secret: overrides.secret ?? loadSecret(e.SVC_SECRET, dataDir),
    logLevel: e.SVC_LOG_LEVEL,
    undoWindowMs: e.SVC_UNDO_WINDOW_MINUTES * 60_000,
    sessionCacheMs: e.SVC_SESSION_CACHE_MS,
    syncTombstoneMs: e.SVC_SYNC_TOMBSTONE_DAYS * 86_400_000,
    smtpUrl: e.SVC_SMTP_URL,
    mailFrom: e.SVC_MAIL_FROM ?? `Inventory <no-reply@${publicUrl.hostname}>`,
    oauthProviders,
    signInProviders: [],
    oauthAllowLoopbackClients: e.SVC_OAUTH_ALLOW_LOOPBACK_CLIENTS,
    electricUrl: e.SVC_ELECTRIC_URL ? new URL(e.SVC_ELECTRIC_URL) : undefined,
    electricSecret: e.SVC_ELECTRIC_SECRET,
    s3,
    ai,
    aiAllowLoopback: e.SVC_AI_ALLOW_LOOPBACK,
    vapid: {
      ...(overrides.vapid ?? loadVapidKeys(e, dataDir)),
      subject:
        e.SVC_VAPID_SUBJECT ??
        (publicUrl.protocol === "https:" ? publicUrl.origin : `mailto:${e.SVC_MAIL_FROM?.match(/[^<\s]+@[^>\s]+/)?.[0] ?? `no-reply@${publicUrl.hostname}`}`),
    },
    aiLeaseMs: e.SVC_AI_LEASE_SECONDS * 1000,
    aiConcurrency: e.SVC_AI_CONCURRENCY,
    pushAllowLoopback: e.SVC_PUSH_ALLOW_LOOPBACK,
    webhooksAllowLoopback: e.SVC_WEBHOOKS_ALLOW_LOOPBACK,
    pushBurstMs: e.SVC_PUSH_BURST_SECONDS * 1000,
    ...overrides,
  };
}
