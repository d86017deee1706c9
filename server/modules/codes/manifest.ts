/** Short codes on printed labels: sheets of them, and claiming one for a thing. */
import { defineModule } from "../manifest.js";
import { codeClaim } from "./claim.js";
import { codeRoutes } from "./routes.js";
import { labelSheetCreate } from "./sheets.js";

export const codesModule = defineModule({
  name: "codes",
  routes: codeRoutes,
  commands: [codeClaim, labelSheetCreate],
  // A code claimed twice: who holds it is decided in the inbox (review.ts).
  inboxKinds: ["label_claim"],
  shapes: ["codes"],
  idKinds: ["labelSheet", "code"],
});
