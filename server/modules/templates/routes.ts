/** /api/v1/things/:id/save-as-template and /api/v1/templates. */
import { pageOf } from "../../../shared/paging.js";
import { saveAsTemplateBody, templateListQuery, templatePatchBody, templateSchema } from "../../../shared/templates.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { deleteTemplate, listTemplates, saveAsTemplate, updateTemplate } from "./service.js";

export function templateRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/save-as-template",
      summary:
        "Save a thing as a template (owners and admins of its location). locationIds: locations of the thing's account you can see (one you cannot see is 404, one of another account 400)",
      tag: "templates",
      status: 201,
      params: idParams,
      body: saveAsTemplateBody,
      response: templateSchema,
      handler: ({ actor, params, body }) => saveAsTemplate(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/templates",
      summary: "The templates offered in a location (its account's templates whose locationIds hold it)",
      tag: "templates",
      query: templateListQuery,
      response: pageOf(templateSchema),
      handler: async ({ actor, query }) => ({ items: await listTemplates(service, actor, query.locationId), next_cursor: null }),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/templates/:id",
      summary: "Rename a template or change where it is offered (locations you cannot see stay); rowVersion or If-Match optional, a stale one is 409",
      tag: "templates",
      params: idParams,
      body: templatePatchBody,
      response: templateSchema,
      handler: ({ actor, params, body }) => updateTemplate(service, actor, params.id, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/templates/:id",
      summary: "Delete a template (a tombstone)",
      tag: "templates",
      params: idParams,
      body: rowVersionBody,
      bodyOptional: true,
      response: writeResultSchema,
      handler: ({ actor, params, body }) => deleteTemplate(service, actor, params.id, body.rowVersion),
    }),
  ] as RouteDef[];
}
