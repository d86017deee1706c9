/**
 * The registry ops the app queues (types, their fields, place kinds, brands, tags, templates), as
 * the helpers' contract names them (sync/ops.ts on the server side). They go through the same
 * outbox as every other change (registry-enqueue.ts), so the editor works with no network. Pure
 * types: optimistic-registries.ts reads them too.
 */
import type { FieldKind } from "../../shared/fields.js";
import type { Op } from "../../sync/ops.js";

export interface RegistryArgs {
  "type.create": { id: string; name: string; icon?: string; parentId?: string; groupIds?: string[]; isGroup?: boolean; containerByDefault?: boolean };
  "type.update": {
    id: string;
    patch: { name?: string; icon?: string; parentId?: string | null; groupIds?: string[]; containerByDefault?: boolean; archived?: boolean };
  };
  "type_field.create": {
    id: string;
    typeId?: string;
    placeKindId?: string;
    key: string;
    label: string;
    kind: FieldKind;
    unit?: string;
    options?: string[];
    repeatable?: boolean;
    required?: boolean;
    secret?: boolean;
    sort?: number;
  };
  "type_field.update": { id: string; patch: { label?: string; unit?: string | null; options?: string[] | null; required?: boolean; sort?: number } };
  "type_field.archive": { id: string };
  "place_kind.create": { id: string; name: string; icon?: string };
  "place_kind.update": { id: string; patch: { name?: string; icon?: string; archived?: boolean } };
  "brand.create": { id: string; name: string };
  "tag.create": { id: string; name: string; colour?: string };
  "template.create": { id: string; thingId: string; name: string; locationIds: string[] };
  "template.update": { id: string; patch: { name?: string; locationIds?: string[] } };
  "template.delete": { id: string };
}
export type RegistryOpName = keyof RegistryArgs;

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

/** A registry op as the outbox holds it. */
export type RegistryOp = {
  [N in RegistryOpName]: { id: string; name: N; locationId: string; args: RegistryArgs[N]; baseVersion?: number; at: string };
}[RegistryOpName];
export type RegistryOpDraft = RegistryOp extends infer O ? (O extends RegistryOp ? Omit<O, "id" | "at"> : never) : never;

export const isRegistryOp = (op: { name: string }): op is RegistryOp => (REGISTRY_OP_NAMES as readonly string[]).includes(op.name);

/** The registry ops among the outbox's ops. */
export const registryOps = (ops: readonly Op[]): RegistryOp[] => (ops as readonly { name: string }[]).filter(isRegistryOp);
