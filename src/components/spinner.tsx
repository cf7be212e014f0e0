export function Loading({ label }: { label: string }) {
  return (
    <output className="loading">
      <span className="loading__dot" aria-hidden="true" />
      {label}
    </output>
  );
}

/**
 * Placeholder rows in the shape of the table that is loading, so the page keeps its layout and the wait reads
 * as "rows are coming" rather than an empty screen. Announced once as loading; the bars themselves are hidden
 * from assistive technology.
 */
export function SkeletonRows({ label, columns, rows = 4 }: { label: string; columns: number; rows?: number }) {
  return (
    <output className="skeleton" aria-label={label}>
      {Array.from({ length: rows }, (_row, row) => (
        <span className="skeleton__row" key={row} aria-hidden="true">
          {Array.from({ length: columns }, (_cell, column) => (
            <span className="skeleton__cell" key={column} />
          ))}
        </span>
      ))}
    </output>
  );
}
