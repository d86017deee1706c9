/** Strings of the notification opt-in (Settings), English and Arabic side by side. */
export const notificationsEn = {
  "notifications.title": "Notifications",
  "notifications.explain": "Get a notification on this device when new items wait for review, and when a change of yours could not be saved.",
  "notifications.on": "Notifications are on for this device.",
  "notifications.off": "Notifications are off for this device.",
  "notifications.turnOn": "Turn on notifications",
  "notifications.turnOff": "Turn off notifications",
  "notifications.working": "One moment…",
  "notifications.unsupported": "This browser cannot show notifications from the app (on iPhone and iPad, add the app to the home screen first).",
  "notifications.denied": "Notifications are blocked for this site. Allow them in the browser's site settings, then try again.",
  "notifications.failed": "Notifications could not be changed: {message}",
} as const;

export const notificationsAr: Record<keyof typeof notificationsEn, string> = {
  "notifications.title": "الإشعارات",
  "notifications.explain": "تلقَّ إشعارًا على هذا الجهاز عندما تنتظر عناصر جديدة المراجعة، وعندما يتعذّر حفظ تغيير أجريته.",
  "notifications.on": "الإشعارات مفعّلة على هذا الجهاز.",
  "notifications.off": "الإشعارات متوقفة على هذا الجهاز.",
  "notifications.turnOn": "تفعيل الإشعارات",
  "notifications.turnOff": "إيقاف الإشعارات",
  "notifications.working": "لحظة…",
  "notifications.unsupported": "لا يستطيع هذا المتصفح عرض إشعارات التطبيق (على iPhone وiPad أضف التطبيق إلى الشاشة الرئيسية أولًا).",
  "notifications.denied": "الإشعارات محظورة لهذا الموقع. اسمح بها من إعدادات الموقع في المتصفح ثم حاول مجددًا.",
  "notifications.failed": "تعذّر تغيير الإشعارات: {message}",
};
