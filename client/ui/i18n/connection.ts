/** What a screen that needs the server says while there is none (../OnlineOnly.tsx), English and Arabic side by side. */
export const connectionEn = {
  "connection.needed": "This needs a connection. It will load by itself when you are back online.",
} as const;

export const connectionAr: Record<keyof typeof connectionEn, string> = {
  "connection.needed": "يحتاج هذا إلى اتصال. سيُحمَّل من تلقاء نفسه عند عودتك إلى الاتصال.",
};
