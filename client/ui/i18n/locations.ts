/** Strings of the Locations screen (choosing and creating a location), English and Arabic side by side. */
export const locationsEn = {
  "locations.new": "New location",
  "locations.newName": "Name of the new location",
  "locations.create": "Create location",
  "locations.created": "Location “{name}” created.",
  "locations.offline": "Creating a location needs a connection.",
};

export const locationsAr: Record<keyof typeof locationsEn, string> = {
  "locations.new": "موقع جديد",
  "locations.newName": "اسم الموقع الجديد",
  "locations.create": "أنشئ الموقع",
  "locations.created": "أُنشئ الموقع «{name}».",
  "locations.offline": "إنشاء موقع يحتاج إلى اتصال.",
};
