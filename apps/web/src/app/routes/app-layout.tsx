// Replaced by the feature that owns this route.
export function Component() {
  return <h1>app-layout</h1>;
}
