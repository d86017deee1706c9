/**
 * Shared by the hostile-input suites (fuzz-openapi, cross-tenant and the others that import
 * test/support/hostile.ts): raw requests, database snapshots, the kinds of id the routes take (as
 * the modules' manifests name them) and a tenant holding a real row of each kind.
 */
export * from "./http.js";
export * from "./snapshot.js";
export * from "./ids.js";
export * from "./tenant.js";
export * from "./openapi.js";
