/** A value that passed its structural check, or the one-line reason it did not. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function passed<T>(value: T): Checked<T> {
  return { ok: true, value };
}

export function failed<T>(error: string): Checked<T> {
  return { ok: false, error };
}
