/**
 * /api/v1/reports: inventory reports (spec `POST /api/v1/reports/inventory`, "Report job"). Never
 * open to a personal token (not on server/modules/tokens/allow-list.ts): a report is a way to get
 * the whole inventory out, as exports are.
 */
import { z } from "zod";
import { reportJobSchema, reportRequestBody, reportStateSchema } from "../../../shared/reports.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { getReport, reportFile, requestReport } from "./service.js";

export function reportRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/reports/inventory",
      summary:
        "Ask for an inventory report of a location (PDF, built in the background; any reader). Filters: placeIds, typeIds, tagIds (at most 100 each), thingIds (at most 2000)",
      tag: "reports",
      status: 202,
      body: reportRequestBody,
      response: reportJobSchema,
      handler: ({ actor, body }) => requestReport(service, actor, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/reports/:id",
      summary: "A report job as it stands (the requester's own only); fileUrl once the PDF is ready",
      tag: "reports",
      params: idParams,
      response: reportStateSchema,
      handler: ({ actor, params }) => getReport(service, actor, params.id),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/reports/:id/file",
      summary: "Download a finished report (application/pdf); 409 while it is being made, 410 once expired",
      tag: "reports",
      params: idParams,
      response: z.unknown(),
      produces: "application/pdf",
      handler: async ({ actor, params, res }) => {
        const pdf = await reportFile(service, actor, params.id);
        res.setHeader("content-type", "application/pdf");
        res.setHeader("content-disposition", `attachment; filename="inventory-report-${params.id}.pdf"`);
        res.setHeader("cache-control", "private, no-store");
        res.status(200).end(pdf);
        return undefined;
      },
    }),
  ] as RouteDef[];
}
