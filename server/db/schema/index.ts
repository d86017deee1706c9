export * from "./auth.js";
export * from "./locations.js";
export * from "./registries.js";
export * from "./inventory.js";
export * from "./activity.js";
export * from "./managed-accounts.js";
export * from "./tokens.js";
export * from "./oauth.js";
