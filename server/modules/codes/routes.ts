/** /api/v1/codes, /api/v1/scan/resolve and label sheets. */
import { z } from "zod";
import {
  codeClaimBody,
  codeClaimResultSchema,
  codeLookupSchema,
  labelSheetCreateBody,
  labelSheetSchema,
  scanResolveBody,
  scanResultSchema,
} from "../../../shared/codes.js";
import { pageOf } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { claim, createSheet, listSheets, lookup, scan, sheetPdf } from "./service.js";

const byCode = z.object({ code: z.string().min(1).max(64) });

export function codeRoutes({ service, config }: ModuleDeps): RouteDef[] {
  // Labels point at the public address when one is set (the default is this server's own).
  const origin = config.publicUrl.origin;
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/codes/:code",
      summary: "What a short code names (case, spaces and dashes do not matter); 404 alike for unknown, free, and invisible codes",
      tag: "codes",
      params: byCode,
      response: codeLookupSchema,
      handler: ({ actor, params }) => lookup(service, actor, params.code),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/codes/:code/claim",
      summary: "Claim a printed label for a thing or place (members and above); a label held by something else becomes a label_claim inbox item",
      tag: "codes",
      params: byCode,
      body: codeClaimBody,
      response: codeClaimResultSchema,
      handler: ({ actor, params, body }) => claim(service, actor, params.code, body),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/scan/resolve",
      summary: "What a scanned or typed text opens: a thing or place, a location, a label to claim, barcode matches, plain text, or nothing",
      tag: "codes",
      body: scanResolveBody,
      response: scanResultSchema,
      handler: ({ actor, body }) => scan(service, actor, body.text, body.format),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/locations/:id/label-sheets",
      summary: "Print a sheet of new codes as QR labels (owners and admins); count 1 to 200, 24 fill an A4 page",
      tag: "codes",
      status: 201,
      params: idParams,
      body: labelSheetCreateBody,
      response: labelSheetSchema,
      handler: ({ actor, params, body }) => createSheet(service, actor, params.id, body.count),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/label-sheets",
      summary: "The location's label sheets, newest first (the latest 100; owners and admins)",
      tag: "codes",
      params: idParams,
      response: pageOf(labelSheetSchema),
      handler: async ({ actor, params }) => ({ items: await listSheets(service, actor, params.id), next_cursor: null }),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/label-sheets/:id/pdf",
      summary: "A label sheet as a PDF: A4, 3 by 8 labels a page (owners and admins)",
      tag: "codes",
      params: idParams,
      response: z.unknown(),
      produces: "application/pdf",
      handler: async ({ actor, params, res }) => {
        const pdf = await sheetPdf(service, actor, params.id, origin);
        res.setHeader("content-type", "application/pdf");
        res.setHeader("content-disposition", `inline; filename="labels-${params.id}.pdf"`);
        res.setHeader("cache-control", "private, no-store");
        res.status(200).end(pdf);
        return undefined;
      },
    }),
  ] as RouteDef[];
}
