/**
 * A meter's use per day and how far to trust it: the rule lives in shared/meter-rules.ts, so the
 * app works out the same estimate from the readings it holds, with no signal.
 */
import { Decimal } from "decimal.js";

export { ESTIMATE_PERIOD_DAYS, estimate, type Point } from "../../../shared/meter-rules.js";

/** A numeric as the API shows it: no trailing zeros, never an exponent ("12.500" -> "12.5"). */
export const decimalOut = (value: string): string => new Decimal(value).toFixed();
