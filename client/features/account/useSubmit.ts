import { useState, type FormEvent } from "react";
import { errorText } from "../../ui/refusal.js";

/**
 * A form that runs one request: `submit` clears the last error, runs `action`, then `done` turns
 * true or `error` holds what went wrong. The one shape the sign-in and link forms share.
 */
export function useSubmit(action: () => Promise<unknown>) {
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    void action().then(
      () => setDone(true),
      (err: unknown) => setError(errorText(err)),
    );
  };
  return { done, error, submit };
}
