/** /api/v1/things/:id/loans, /api/v1/loans (+ :id, return), /api/v1/contacts. Writes go through the service. */
import {
  contactListSchema,
  contactQuery,
  loanCreateBody,
  loanListSchema,
  loanPatchBody,
  loanQuerySchema,
  loanReturnBody,
  loanSchema,
} from "../../../shared/loans.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { getContacts, getLoan, getLoans, lend, returnLoan, updateLoan } from "./service.js";

export function loanRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/loans",
      summary:
        "Lend a thing out or record it borrowed (members and above); part of its quantity splits it. The person is {userId}, {contactId} or a new contact {name, id?}",
      tag: "loans",
      status: 201,
      params: idParams,
      body: loanCreateBody,
      response: loanSchema,
      handler: ({ actor, params, body }) => lend(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/loans",
      summary: "Loans of the locations you read, newest first, with counts of open (out, in) and overdue loans",
      tag: "loans",
      query: loanQuerySchema,
      response: loanListSchema,
      handler: ({ actor, query }) => getLoans(service, actor, query),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/loans/:id",
      summary: "A loan",
      tag: "loans",
      params: idParams,
      response: loanSchema,
      handler: ({ actor, params }) => getLoan(service, actor, params.id),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/loans/:id",
      summary: "Change a loan's due date or notes (rowVersion or If-Match optional; a stale one is 409 version_conflict)",
      tag: "loans",
      params: idParams,
      body: loanPatchBody,
      response: loanSchema,
      handler: ({ actor, params, body }) => updateLoan(service, actor, params.id, body),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/loans/:id/return",
      summary: "Return a loan: the thing goes back to returnPlace (default: where it was when it went out); a split thing joins its original",
      tag: "loans",
      params: idParams,
      body: loanReturnBody,
      response: loanSchema,
      handler: ({ actor, params, body }) => returnLoan(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/contacts",
      summary: "Contacts of the owner accounts you read (the people loans name who are not members), by name, paged; locationId narrows to its account",
      tag: "loans",
      query: contactQuery,
      response: contactListSchema,
      handler: ({ actor, query }) => getContacts(service, actor, query),
    }),
  ] as RouteDef[];
}
