/** Duplicates: a new thing that looks like one already there is raised for review (raise.ts). */
import { defineModule } from "../manifest.js";

export const duplicatesModule = defineModule({
  name: "duplicates",
  inboxKinds: ["duplicate"],
});
