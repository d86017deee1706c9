/**
 * Strings of capture review (the "straight in" setting, "accept all" in the inbox) and of changes
 * the device refuses at once, English and Arabic side by side.
 */
export const captureEn = {
  "capture.straightIn": "My own captures go straight in",
  "capture.straightInHelp": "What you capture here is accepted as it arrives, without waiting in the inbox. Other people's captures still wait for review.",
  "capture.straightInOffline": "Changing this needs a connection.",
  "capture.straightInSaved": "Saved for all your devices.",
  "capture.straightInFailed": "The setting could not be saved: {message}",
  "inbox.acceptAll": "Accept all captures ({count})",
  "inbox.acceptAllConfirm": "Accept all {count} captured drafts?",
  "inbox.acceptedAll": "Accepted: {count}. Any that cannot be accepted come back here as a change not applied.",
  "inbox.noReapply": "Sending it again would meet the same answer: dismiss it, or make the change again once what stopped it has changed.",
  "refusal.role": "Your role here does not allow this change.",
  "refusal.unplaced": "The Unplaced area cannot be deleted.",
};

export const captureAr: Record<keyof typeof captureEn, string> = {
  "capture.straightIn": "ما ألتقطه بنفسي يُضاف مباشرة",
  "capture.straightInHelp": "ما تلتقطه هنا يُقبل فور وصوله دون انتظار في صندوق الوارد. أما ما يلتقطه الآخرون فيبقى بانتظار المراجعة.",
  "capture.straightInOffline": "تغيير هذا يحتاج إلى اتصال.",
  "capture.straightInSaved": "حُفظ لكل أجهزتك.",
  "capture.straightInFailed": "تعذّر حفظ الإعداد: {message}",
  "inbox.acceptAll": "قبول كل الملتقطات ({count})",
  "inbox.acceptAllConfirm": "قبول كل المسودات الملتقطة ({count})؟",
  "inbox.acceptedAll": "المقبول: {count}. ما لا يمكن قبوله يعود إلى هنا كتغيير لم يُطبَّق.",
  "inbox.noReapply": "إرساله مجددًا سيلقى الرد نفسه: تجاهله، أو أجرِ التغيير من جديد بعد أن يتغيّر ما منعه.",
  "refusal.role": "دورك هنا لا يسمح بهذا التغيير.",
  "refusal.unplaced": "لا يمكن حذف منطقة «بلا مكان».",
};
