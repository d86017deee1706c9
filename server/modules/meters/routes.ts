/** /api/v1/things/:id/meters and /api/v1/meters/:id (+ readings, proofs). Writes go through the service. */
import { meterCreateBody, meterPageQuery, meterPatchBody, meterSchema, proofSchema, readingCreateBody, readingSchema } from "../../../shared/meters.js";
import { pageOf } from "../../../shared/paging.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { captureReading, createMeter, deleteMeter, getMeter, getProofs, getReadings, listMeters, updateMeter } from "./service.js";

export function meterRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/meters",
      summary: "Put a meter on a thing (members and above)",
      tag: "meters",
      status: 201,
      params: idParams,
      body: meterCreateBody,
      response: meterSchema,
      handler: ({ actor, params, body }) => createMeter(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id/meters",
      summary: "The meters of a thing, oldest first (paged)",
      tag: "meters",
      params: idParams,
      query: meterPageQuery,
      response: pageOf(meterSchema),
      handler: ({ actor, params, query }) => listMeters(service, actor, params.id, query),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/meters/:id",
      summary: "A meter with its latest reading, readings waiting for review and estimate",
      tag: "meters",
      params: idParams,
      response: meterSchema,
      handler: ({ actor, params }) => getMeter(service, actor, params.id),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/meters/:id",
      summary: "Change a meter (rowVersion or If-Match optional; a stale one is 409 version_conflict)",
      tag: "meters",
      params: idParams,
      body: meterPatchBody,
      response: meterSchema,
      handler: ({ actor, params, body }) => updateMeter(service, actor, params.id, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/meters/:id",
      summary: "Delete a meter (a tombstone)",
      tag: "meters",
      params: idParams,
      body: rowVersionBody,
      bodyOptional: true,
      response: writeResultSchema,
      handler: ({ actor, params, body }) => deleteMeter(service, actor, params.id, body.rowVersion),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/meters/:id/readings",
      summary: "Record a reading (takenAt defaults to now; an implausible one is kept and goes to the inbox)",
      tag: "meters",
      status: 201,
      params: idParams,
      body: readingCreateBody,
      response: readingSchema,
      handler: ({ actor, params, body }) => captureReading(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/meters/:id/readings",
      summary: "A meter's readings, newest takenAt first (paged)",
      tag: "meters",
      params: idParams,
      query: meterPageQuery,
      response: pageOf(readingSchema),
      handler: ({ actor, params, query }) => getReadings(service, actor, params.id, query),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/meters/:id/proofs",
      summary: "The photo proofs of a meter's readings, newest takenAt first (paged)",
      tag: "meters",
      params: idParams,
      query: meterPageQuery,
      response: pageOf(proofSchema),
      handler: ({ actor, params, query }) => getProofs(service, actor, params.id, query),
    }),
  ] as RouteDef[];
}
