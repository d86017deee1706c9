/**
 * The registry ops the app queues (types, their fields, place kinds, brands, tags, templates), as
 * the helpers' contract names them (sync/ops.ts on the server side). They go through the same
 * outbox as every other change (registry-enqueue.ts), so the editor works with no network. Pure
 * types: optimistic-registries.ts reads them too.
 */
import type { Op } from "../../sync/ops.js";

export type RegistryOpName =
  | "type.create"
  | "type.update"
  | "type_field.create"
  | "type_field.update"
  | "type_field.archive"
  | "place_kind.create"
  | "place_kind.update"
  | "brand.create"
  | "tag.create"
  | "template.create"
  | "template.update"
  | "template.delete";

export const REGISTRY_OP_NAMES: readonly RegistryOpName[] = [
  "type.create",
  "type.update",
  "type_field.create",
  "type_field.update",
  "type_field.archive",
  "place_kind.create",
  "place_kind.update",
  "brand.create",
  "tag.create",
  "template.create",
  "template.update",
  "template.delete",
];

/** A registry op as the outbox holds it (sync/ops.ts: args from shared/registries.ts and shared/templates.ts). */
export type RegistryOp = Extract<Op, { name: RegistryOpName }>;
export type RegistryOpDraft = RegistryOp extends infer O ? (O extends RegistryOp ? Omit<O, "id" | "at"> : never) : never;

export const isRegistryOp = <O extends { name: string }>(op: O): op is O & RegistryOp => (REGISTRY_OP_NAMES as readonly string[]).includes(op.name);

/** The registry ops among the outbox's ops. */
export const registryOps = (ops: readonly Op[]): RegistryOp[] => (ops as readonly { name: string }[]).filter(isRegistryOp);
