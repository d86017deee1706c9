/**
 * Loans (spec "Loan", GET /loans): a thing lent out to someone, or borrowed in from someone. The
 * person is a member or a contact of the owner account.
 */
export const LOAN_DIRECTIONS = ["out", "in"] as const;
export type LoanDirection = (typeof LOAN_DIRECTIONS)[number];

/** A condition note or photo reference taken when the thing went out or came back. */
export type LoanCondition = { id: string } & Record<string, unknown>;
