export function Loading({ label }: { label: string }) {
  return (
    <output className="loading">
      <span className="loading__dot" aria-hidden="true" />
      {label}
    </output>
  );
}
