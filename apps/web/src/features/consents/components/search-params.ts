/** `params` with `name` set to `value`, or without it when `value` is null. */
export function withParam(params: URLSearchParams, name: string, value: string | null) {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(name);
  else next.set(name, value);
  return next;
}
