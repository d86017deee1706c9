/**
 * The consent page and the error page of /oauth/authorize: plain server-rendered HTML (the client
 * must not be able to script it), every value escaped. The person sees the client's name, the host
 * of its client_id and the host its answer goes to, and picks scopes and locations.
 */
import type { OAuthScope } from "../../shared/oauth.js";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}fieldset{margin:1rem 0}.warn{color:#8a4b00}</style>
</head><body>${body}</body></html>`;

export function errorPage(message: string): string {
  return page("Cannot connect", `<h1>This app cannot connect</h1><p>${escape(message)}</p>`);
}

export function signInPage(returnTo: string): string {
  return page(
    "Sign in first",
    `<h1>Sign in first</h1><p>Sign in to the inventory in this browser, then come back to this page.</p><p><a href="/?next=${encodeURIComponent(returnTo)}">Sign in</a></p>`,
  );
}

export interface ConsentView {
  clientName: string;
  clientHost: string;
  redirectHost: string;
  loopbackRedirect: boolean;
  requested: OAuthScope[];
  locations: { id: string; name: string; role: string }[];
  /** The authorization request, carried through the form unchanged. */
  hidden: Record<string, string>;
}

export function consentPage(v: ConsentView): string {
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${escape(k)}" value="${escape(val)}">`)
    .join("");
  const scopeLabel: Record<OAuthScope, string> = { "svc:read": "Read your inventory", "svc:write": "Add, change and move things" };
  const scopes = v.requested
    .map((s) => `<label><input type="checkbox" name="scope_choice" value="${s}" checked${s === "svc:read" ? " disabled" : ""}> ${scopeLabel[s]}</label><br>`)
    .join("");
  const locations = v.locations
    .map((l) => `<label><input type="checkbox" name="location" value="${escape(l.id)}"> ${escape(l.name)} <small>(${escape(l.role)})</small></label><br>`)
    .join("");
  return page(
    "Connect an app",
    `<h1>Connect ${escape(v.clientName)}?</h1>
<p>This app is published at <strong>${escape(v.clientHost)}</strong> and gets its answer at <strong>${escape(v.redirectHost)}</strong>.</p>
${v.loopbackRedirect ? `<p class="warn">The answer goes to a program on this device (${escape(v.redirectHost)}). Continue only if you started it.</p>` : ""}
<form method="post" action="/oauth/authorize">${hidden}
<fieldset><legend>It may</legend>${scopes}</fieldset>
<fieldset><legend>In these locations</legend>${locations || "<p>You are in no location yet.</p>"}</fieldset>
<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}
