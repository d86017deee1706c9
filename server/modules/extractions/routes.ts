/** /api/v1/things/:id/extractions: a thing's AI readings of its photos, and asking for another. */
import { z } from "zod";
import { extractionRecordSchema, extractionStartBody } from "../../../shared/extractions.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { listExtractions, startExtraction } from "./service.js";

export function extractionRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id/extractions",
      summary: "The thing's extractions (AI readings of its photos), newest first, each with its AI call record",
      tag: "extractions",
      params: idParams,
      response: z.object({ items: z.array(extractionRecordSchema) }),
      handler: ({ actor, params }) => listExtractions(service, actor, params.id),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/things/:id/extractions",
      summary:
        "Read the thing's photos again (members and above): queues a new extraction, superseding an unfinished one; the latest run's photos unless `fileIds` names others",
      tag: "extractions",
      status: 201,
      params: idParams,
      body: extractionStartBody,
      response: extractionRecordSchema,
      handler: ({ actor, params, body }) => startExtraction(service, actor, params.id, body),
    }),
  ] as RouteDef[];
}
