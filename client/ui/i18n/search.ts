/** Strings of finding things (the Things screen's search) and of a container's contents on its page, English and Arabic side by side. */
export const searchEn = {
  "search.hint": "Name, type, brand, place or a field's value",
  "contents.title": "In this container",
  "contents.empty": "Nothing is in it yet.",
};

export const searchAr: Record<keyof typeof searchEn, string> = {
  "search.hint": "الاسم أو النوع أو العلامة التجارية أو المكان أو قيمة حقل",
  "contents.title": "في هذه الحاوية",
  "contents.empty": "لا شيء فيها بعد.",
};
