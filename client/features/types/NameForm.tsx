import { useState } from "react";

/** A name form: one input and one button (create or rename). */
export function NameForm({ label, button, initial = "", onSubmit }: { label: string; button: string; initial?: string; onSubmit: (name: string) => void }) {
  const [name, setName] = useState(initial);
  return (
    <form
      className="row-form"
      onSubmit={(e) => {
        e.preventDefault();
        const n = name.trim();
        if (!n || n === initial) return;
        onSubmit(n);
        if (!initial) setName("");
      }}
    >
      <label>
        {label}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required />
      </label>
      <button type="submit">{button}</button>
    </form>
  );
}
