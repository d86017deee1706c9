/**
 * Activity lines (client/ui/audit-line.ts): every audit action reads in words in English and in
 * Arabic, of "you" and of another person, with every parameter filled and no id or raw key left.
 */
import { describe, expect, test } from "vitest";
import { AUDIT_ACTIONS, type AuditEntry } from "../../../shared/audit.js";
import { auditLine } from "../../../client/ui/audit-line.js";
import { formatting } from "../../../client/ui/i18n/i18n.js";

const en = formatting("en", "latn");
const ar = formatting("ar", "arab");
const params = {
  name: "CI",
  scope: "user",
  host: "hooks.example",
  target: "Drill",
  client: "Notes",
  provider: "provider_a",
  location: "Garden Shed",
  to: "Sam",
  member: "Hana",
  role: "viewer",
};
const entry = (action: AuditEntry["action"], actor: Partial<AuditEntry["actor"]> = {}, extra: AuditEntry["params"] = {}): AuditEntry => ({
  id: "0190e4c6-0000-7000-8000-000000000000",
  action,
  at: "2026-11-28T12:00:00.000Z",
  actor: { type: "user", name: "Sam", you: false, ...actor },
  params: { ...params, ...extra },
  locationId: null,
});

describe("an activity line", () => {
  test("every action reads in both languages, of you and of another, with nothing left unfilled", () => {
    for (const action of AUDIT_ACTIONS)
      for (const i18n of [en, ar])
        for (const you of [true, false]) {
          const line = auditLine(i18n, entry(action, { you }));
          expect(line, `${action} ${i18n.lang} ${you}`).not.toMatch(/[{}]|audit\.|provider_a|0190e4c6/);
          expect(line.length).toBeGreaterThan(5);
        }
  });

  test("reads as the issue's examples", () => {
    expect(auditLine(en, entry("token.created", { you: true }))).toBe("You made the personal token “CI”");
    expect(auditLine(en, entry("share_link.revoked"))).toBe("Sam revoked the share link of Drill in Garden Shed");
    expect(auditLine(en, entry("member.joined"))).toBe("Hana joined Garden Shed as viewer");
    expect(auditLine(ar, entry("token.created", { you: true }))).toBe("أنشأتَ الرمز الشخصي «CI»");
    expect(auditLine(en, entry("ai_key.set", { you: true }, { scope: "account" }))).toBe("You set your account's AI key (OpenAI)");
  });

  test("a person no longer known reads as Someone; the service's own revocation has its own words", () => {
    expect(auditLine(en, entry("token.revoked", { name: null }))).toBe("Someone revoked the personal token “CI”");
    expect(auditLine(en, entry("oauth_grant.revoked", { type: "system", name: null }))).toBe(
      "The app “Notes” lost its access: its sign-in code was used twice",
    );
    expect(auditLine(en, entry("share_link.created", {}, { target: "" }))).toBe("Sam made a share link of a list in Garden Shed");
  });
});
