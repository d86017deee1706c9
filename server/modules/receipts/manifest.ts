/** Receipts: a photographed receipt read into a purchase, its lines made into things in the inbox. */
import { defineModule } from "../manifest.js";
import { receiptCapture } from "./capture.js";

export const receiptsModule = defineModule({
  name: "receipts",
  commands: [receiptCapture],
  // A read receipt's lines, and a purchase whose currency the reading could not tell (review.ts).
  inboxKinds: ["receipt", "currency"],
});
