/** Name, email and a new password: the fields of every form that makes an account (sign-up, first-run setup). */
import { useI18n } from "../../ui/i18n/i18n.js";

export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

export function NewAccountFields({ value, onChange }: { value: NewAccount; onChange: (next: NewAccount) => void }) {
  const { t } = useI18n();
  return (
    <>
      <label>
        {t("auth.name")}
        <input autoComplete="name" required value={value.name} onChange={(e) => onChange({ ...value, name: e.target.value })} />
      </label>
      <label>
        {t("auth.email")}
        <input type="email" autoComplete="email" required value={value.email} onChange={(e) => onChange({ ...value, email: e.target.value })} />
      </label>
      <label>
        {t("auth.password")}
        <input
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          value={value.password}
          onChange={(e) => onChange({ ...value, password: e.target.value })}
        />
      </label>
    </>
  );
}
