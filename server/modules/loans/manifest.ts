/** Loans: things lent to contacts, their return, and the notice when one is overdue. */
import { defineModule } from "../manifest.js";
import { loanCreate } from "./commands.js";
import { startOverdueNotices } from "./overdue.js";
import { loanReturn, loanUpdate } from "./return.js";
import { loanRoutes } from "./routes.js";
import { loanOverdueNoted } from "./overdue-noted.js";

export const loansModule = defineModule({
  name: "loans",
  routes: loanRoutes,
  commands: [loanCreate, loanReturn, loanUpdate, loanOverdueNoted],
  jobs: [{ name: "overdue notices", start: startOverdueNotices }],
  shapes: ["contacts", "loans"],
  idKinds: ["loan", "contact"],
});
