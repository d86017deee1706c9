/** What the authorization server and /mcp share: issuer, resource, keys and the client document store. */
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { AccessTokens } from "./access-tokens.js";
import { ClientMetadataStore } from "./client-metadata.js";

export interface OAuthContext {
  db: Db;
  issuer: string;
  /** `<public URL>/mcp`: the only audience our access tokens have. */
  resource: string;
  tokens: AccessTokens;
  clients: ClientMetadataStore;
}

export function oauthContext(config: Config, db: Db): OAuthContext {
  const issuer = config.publicUrl.origin;
  const resource = `${issuer}/mcp`;
  return {
    db,
    issuer,
    resource,
    tokens: new AccessTokens(config.secret, issuer, resource),
    clients: new ClientMetadataStore({ allowLoopback: config.oauthAllowLoopbackClients }),
  };
}
