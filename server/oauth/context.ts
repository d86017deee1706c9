/** What the authorization server and /mcp share: issuer, resource, keys and the client document store. */
import type { Config } from "../config.js";
import type { Database, Db } from "../db/client.js";
import { AccessTokens } from "./access-tokens.js";
import { ClientMetadataStore } from "./client-metadata.js";
import { createOAuthLimits, type OAuthLimits } from "./limits.js";

export interface OAuthContext {
  db: Db;
  issuer: string;
  /** `<public URL>/mcp`: the only audience our access tokens have. */
  resource: string;
  tokens: AccessTokens;
  clients: ClientMetadataStore;
  /** Per-address limits of the token endpoint and /mcp, and per-client of the token endpoint. */
  limits: OAuthLimits;
}

export function oauthContext(config: Config, database: Database): OAuthContext {
  const issuer = config.publicUrl.origin;
  const resource = `${issuer}/mcp`;
  return {
    db: database.db,
    issuer,
    resource,
    tokens: new AccessTokens(config.secret, issuer, resource),
    clients: new ClientMetadataStore({ allowLoopback: config.oauthAllowLoopbackClients }),
    limits: createOAuthLimits(database),
  };
}
