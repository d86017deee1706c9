/** maxPerDay travels as a number in ops and arrives as numeric text from the shape. */
export const perDayText = (n: number | null | undefined): string | null => (n === null || n === undefined ? null : String(n));
