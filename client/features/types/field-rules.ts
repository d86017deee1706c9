/**
 * What the field forms share: the server's field shape rules (shared/registries.ts), the message
 * key of a kind's name, and the base version an op on a registry row carries.
 */
import type { FieldKind } from "../../../shared/fields.js";
import { FIELD_KEY_PATTERN, KINDS_NOT_REPEATABLE, KINDS_WITH_OPTIONS, KINDS_WITH_UNIT } from "../../../shared/registries.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";

export const KEY = FIELD_KEY_PATTERN;
export const hasOptions = (kind: FieldKind) => KINDS_WITH_OPTIONS.includes(kind);
export const hasUnit = (kind: FieldKind) => KINDS_WITH_UNIT.includes(kind);
export const canRepeat = (kind: FieldKind) => !KINDS_NOT_REPEATABLE.includes(kind);
/** A row this device made and the server has not confirmed (rowVersion 0) carries no base version. */
export const baseOf = (f: { rowVersion: number }) => (f.rowVersion > 0 ? { baseVersion: f.rowVersion } : {});
export const kindKey = (kind: FieldKind) => `fields.kind.${kind}` as MessageKey;
