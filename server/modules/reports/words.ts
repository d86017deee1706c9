/** The report's own words, English and Arabic (the PDF is made on the server, away from the app's strings). */
import type { ReportLocale } from "../../../shared/reports.js";
import { BUILTIN_NAMES } from "../locations/seed.js";

export interface Words {
  title: string;
  things: string;
  quantitySum: string;
  value: string;
  quantity: string;
  unnamed: string;
  noPlace: string;
  none: string;
  ended: string;
  trashed: string;
  yes: string;
  no: string;
  pathSep: string;
  builtin: Record<string, string>;
}

export const REPORT_WORDS: Record<ReportLocale, Words> = {
  en: {
    title: "Inventory report",
    things: "Things",
    quantitySum: "Total quantity",
    value: "Total value",
    quantity: "Qty",
    unnamed: "Unnamed",
    noPlace: "No place",
    none: "No things match this report.",
    ended: "ended",
    trashed: "in the bin",
    yes: "yes",
    no: "no",
    pathSep: "›",
    // The built-in types' English names are the ones a new account is seeded with.
    builtin: BUILTIN_NAMES,
  },
  ar: {
    title: "تقرير الجرد",
    things: "الأغراض",
    quantitySum: "مجموع الكميات",
    value: "القيمة الإجمالية",
    quantity: "الكمية",
    unnamed: "بلا اسم",
    noPlace: "بلا مكان",
    none: "لا توجد أغراض تطابق هذا التقرير.",
    ended: "منتهٍ",
    trashed: "في سلة المحذوفات",
    yes: "نعم",
    no: "لا",
    pathSep: "‹",
    builtin: { thing: "غرض", box: "صندوق", tool: "أداة", electronics: "إلكترونيات", book: "كتاب", clothing: "ملابس", furniture: "أثاث", document: "مستند" },
  },
};
