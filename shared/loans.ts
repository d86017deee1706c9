/**
 * Loans (spec "Loan", GET /loans): a thing lent out to someone, or borrowed in from someone. The
 * person is a member or a contact of the owner account; a new contact is made inline (its id made
 * on the device, so a loan to a new person works offline). Lending part of a quantity splits the
 * thing; the return joins it back.
 */
import { z } from "zod";
import { thingSummarySchema } from "./things.js";
import { timestampSchema, uuidSchema } from "./ids.js";
import { pageOf, pageQuerySchema } from "./paging.js";

export const LOAN_DIRECTIONS = ["out", "in"] as const;
export type LoanDirection = (typeof LOAN_DIRECTIONS)[number];
export const LOAN_STATES = ["open", "overdue", "returned"] as const;
export type LoanState = (typeof LOAN_STATES)[number];

export const LOAN_NOTES_MAX = 2000;
export const LOAN_CONDITIONS_MAX = 20;
export const LOAN_CONDITION_NOTE_MAX = 500;
export const CONTACT_NAME_MAX = 200;
/** Spec "Limits": loans list limit 1 to 200 (default 20), cursor at most 2048, q at most 200. */
export const LOANS_Q_MAX = 200;

/** A condition note or photo reference taken when the thing went out or came back. */
export type LoanCondition = { id: string } & Record<string, unknown>;
export const loanConditionSchema = z
  .object({ id: uuidSchema, note: z.string().max(LOAN_CONDITION_NOTE_MAX).optional(), fileId: uuidSchema.optional() })
  .strict();
const conditions = z.array(loanConditionSchema).max(LOAN_CONDITIONS_MAX);

/** A calendar day, YYYY-MM-DD, that exists. */
export const dayOnSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a real date")
  .meta({ format: "date" });

/** Above 0, at most 3 decimals (the thing's quantity column). */
export const loanQuantitySchema = z
  .string()
  .regex(/^\d{1,11}(\.\d{1,3})?$/, "must be a decimal number with at most 3 decimals")
  .refine((q) => Number(q) > 0, "quantity must be above 0");

const contactName = z.string().trim().min(1).max(CONTACT_NAME_MAX);
/** Who: a member of the thing's location, a contact of the owner account, or a new contact named here. */
const personArgs = z.union([
  z.object({ userId: uuidSchema }).strict(),
  z.object({ contactId: uuidSchema }).strict(),
  z.object({ name: contactName, id: uuidSchema }).strict(),
]);
const personBody = z.union([
  z.object({ userId: uuidSchema }).strict(),
  z.object({ contactId: uuidSchema }).strict(),
  z.object({ name: contactName, id: uuidSchema.optional() }).strict(),
]);
export type LoanPersonArgs = z.infer<typeof personArgs>;

const loanFields = {
  direction: z.enum(LOAN_DIRECTIONS),
  quantity: loanQuantitySchema.optional(),
  dueOn: dayOnSchema.nullable().optional(),
  notes: z.string().max(LOAN_NOTES_MAX).nullable().optional(),
  conditionOut: conditions.optional(),
  /** The id of the thing a partial loan splits off (made on the device for offline; the server's otherwise). */
  splitThingId: uuidSchema.optional(),
};

export const loanCreateArgs = z
  .object({ id: uuidSchema, thingId: uuidSchema, person: personArgs, ...loanFields, startedAt: z.iso.datetime({ offset: true }).optional() })
  .strict();
export type LoanCreateArgs = z.infer<typeof loanCreateArgs>;
/** REST POST /things/{id}/loans: the thing is in the path; ids default on the server. */
export const loanCreateBody = z.object({ id: uuidSchema.optional(), person: personBody, ...loanFields }).strict();

export const PLACE_REF_TYPES = ["place", "thing"] as const;
/** Where a returned thing goes: a place, or a container (`thing`); a place when the type is left out. */
export const returnPlaceInSchema = z.object({ type: z.enum(PLACE_REF_TYPES).default("place"), id: uuidSchema }).strict();
const returnFields = {
  returnPlace: returnPlaceInSchema.optional(),
  conditionIn: conditions.optional(),
  at: z.iso.datetime({ offset: true }).optional(),
};
export const loanReturnArgs = z.object({ id: uuidSchema, ...returnFields }).strict();
export type LoanReturnArgs = z.infer<typeof loanReturnArgs>;
export const loanReturnBody = z.object(returnFields).strict();

const loanPatchShape = z.object({ dueOn: dayOnSchema.nullable().optional(), notes: z.string().max(LOAN_NOTES_MAX).nullable().optional() }).strict();
export const loanUpdateArgs = z
  .object({ id: uuidSchema, patch: loanPatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field") })
  .strict();
export type LoanUpdateArgs = z.infer<typeof loanUpdateArgs>;
export const loanPatchBody = loanPatchShape.extend({ rowVersion: z.number().int().min(1).optional() }).strict();

/** Spec "Place reference". */
export const placeRefSchema = z
  .object({
    type: z.enum(["thing", "place", "location"]),
    id: uuidSchema,
    name: z.string(),
    path: z.string(),
    shortCode: z.string().nullable().optional(),
  })
  .meta({ id: "PlaceReference" });
export type PlaceRef = z.infer<typeof placeRefSchema>;

export const loanSchema = z
  .object({
    id: uuidSchema,
    thingId: uuidSchema,
    direction: z.enum(LOAN_DIRECTIONS),
    person: z.object({ id: uuidSchema, name: z.string(), isMember: z.boolean() }),
    startedAt: timestampSchema,
    dueOn: z.string().nullable(),
    returnedAt: timestampSchema.nullable(),
    overdue: z.boolean(),
    quantity: z.string(),
    splitFromThingId: uuidSchema.nullable(),
    returnPlace: placeRefSchema.nullable(),
    previousPlace: placeRefSchema.nullable(),
    notes: z.string().nullable(),
    conditionOut: z.array(z.looseObject({ id: uuidSchema })),
    conditionIn: z.array(z.looseObject({ id: uuidSchema })),
    rowVersion: z.number().int(),
    createdBy: z.object({ displayName: z.string() }),
    thing: thingSummarySchema,
  })
  .meta({ id: "Loan" });
export type Loan = z.infer<typeof loanSchema>;

export const loanCountsSchema = z.object({ out: z.number().int(), in: z.number().int(), overdue: z.number().int() });
export const loanListSchema = z.object({ items: z.array(loanSchema), counts: loanCountsSchema, next_cursor: z.string().nullable() });
export type LoanList = z.infer<typeof loanListSchema>;

export const loanQuerySchema = z.object({
  direction: z.enum(LOAN_DIRECTIONS).optional(),
  state: z.enum(LOAN_STATES).optional(),
  locationId: uuidSchema.optional(),
  personId: uuidSchema.optional(),
  q: z.string().max(LOANS_Q_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  cursor: z.string().max(2048).optional(),
});
export type LoanQuery = z.infer<typeof loanQuerySchema>;

export const contactSchema = z.object({ id: uuidSchema, name: z.string() }).meta({ id: "Contact" });
export const contactListSchema = pageOf(contactSchema);
export type ContactList = z.infer<typeof contactListSchema>;
export const contactQuery = pageQuerySchema.extend({ locationId: uuidSchema.optional() });

/** A day as the loans compare them: the UTC calendar day of `d`. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);
/** Spec "Loan": overdue when due before today (UTC) and not returned. */
export const isOverdue = (l: { dueOn: string | null; returnedAt: string | Date | null }, now: Date = new Date()): boolean =>
  !l.returnedAt && !!l.dueOn && l.dueOn < utcDay(now);
