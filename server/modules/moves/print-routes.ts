/** A move's printed pages: box labels and packing lists (PDF), for any reader of the move. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { type Actor, withActor } from "../../db/actor.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { boxLabelsPdf, packingListPdf, PRINT_LOCALES, type PrintLocale } from "./print.js";
import { printedMove } from "./print-data.js";

const printQuery = z.object({
  /** One box only (its container id); all the move's boxes when absent. */
  containerId: uuidSchema.optional(),
  locale: z.enum(PRINT_LOCALES).default("en"),
});

export function movePrintRoutes({ service, config }: ModuleDeps): RouteDef[] {
  const { db } = service;
  const origin = config.publicUrl.origin;
  const pdfRoute = (what: "labels" | "packing-list", summary: string) =>
    defineRoute({
      method: "get",
      path: `/api/v1/moves/:id/${what}.pdf`,
      summary,
      tag: "moves",
      params: idParams,
      query: printQuery,
      response: z.unknown(),
      produces: "application/pdf",
      handler: async ({ actor, params, query, res }) => {
        const pdf = await render(actor, params.id, what, query);
        res.setHeader("content-type", "application/pdf");
        res.setHeader("content-disposition", `inline; filename="${what}-${params.id}.pdf"`);
        res.setHeader("cache-control", "private, no-store");
        res.status(200).end(pdf);
        return undefined;
      },
    });
  const render = async (actor: Actor, id: string, what: "labels" | "packing-list", q: { containerId?: string | undefined; locale: PrintLocale }) => {
    const move = await withActor(db, actor, (tx) => printedMove(tx, id, { containerId: q.containerId, contents: what === "packing-list" }));
    return what === "labels" ? boxLabelsPdf(move, origin, q.locale) : packingListPdf(move, origin, q.locale);
  };
  return [
    pdfRoute("labels", "Box labels of a move (PDF, four to an A4 page): number, destination, the box's code as a QR code"),
    pdfRoute("packing-list", "Packing lists of a move (PDF, a page per box, or one box with `containerId`): what each box holds"),
  ] as RouteDef[];
}
