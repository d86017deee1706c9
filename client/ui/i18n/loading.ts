/** Strings of loading a screen's code (lazy-screen.tsx), English and Arabic side by side. */
export const loadingEn = {
  "app.screenFailed": "This screen could not be shown. Reload the page to try again.",
  "app.reload": "Reload",
} as const;

export const loadingAr: Record<keyof typeof loadingEn, string> = {
  "app.screenFailed": "تعذّر عرض هذه الشاشة. أعد تحميل الصفحة للمحاولة مجددًا.",
  "app.reload": "إعادة التحميل",
};
