import type { SqlRow } from '../../sim/ledger';

/**
 * A small read-only table of SQL rows (values as text). `total`: the table's row count when
 * `rows` is one page of it (the caption shows the total; `data-rows` counts the rendered rows).
 */
export function RowsTable({ caption, columns, rows, testId, empty = 'no rows', total }: { caption: string; columns: string[]; rows: readonly (SqlRow | unknown[])[]; testId?: string; empty?: string; total?: number }) {
  const n = total ?? rows.length;
  return (
    <table className="sql-table" data-testid={testId} data-rows={rows.length} data-total={n}>
      <caption>
        {caption} <span className="muted">({n.toLocaleString('en-US')} row{n === 1 ? '' : 's'})</span>
      </caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c.split('_').map((part, i) => (
                <span key={i}>
                  {i > 0 && (
                    <>
                      _<wbr />
                    </>
                  )}
                  {part}
                </span>
              ))}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} className="muted">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c, j) => {
                const v = Array.isArray(r) ? r[j] : (r as SqlRow)[c];
                const text = v === null || v === undefined ? null : short(String(v));
                return (
                  <td key={c} className={text !== null && text.length > 24 ? 'long' : undefined}>
                    {text === null ? <span className="muted">NULL</span> : text}
                  </td>
                );
              })}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * Previous / next buttons and "rows X–Y of N" for one page of a table (`offset` 0-based, `shown`
 * rows on this page, `total` from SQL). Test ids: `<testId>-range`, `<testId>-prev`, `<testId>-next`.
 */
export function Pager({ offset, shown, total, pageRows, testId, onPage }: { offset: number; shown: number; total: number; pageRows: number; testId: string; onPage(offset: number): void }) {
  if (total <= pageRows && offset === 0) return null;
  const f = (n: number) => n.toLocaleString('en-US');
  return (
    <div className="button-row pager" data-testid={testId}>
      <button type="button" className="small-btn" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - pageRows))} data-testid={`${testId}-prev`}>
        Previous {pageRows}
      </button>
      <span className="small" data-testid={`${testId}-range`} aria-live="polite">
        rows {f(shown === 0 ? 0 : offset + 1)}–{f(offset + shown)} of {f(total)}
      </span>
      <button type="button" className="small-btn" disabled={offset + shown >= total} onClick={() => onPage(offset + pageRows)} data-testid={`${testId}-next`}>
        Next {pageRows}
      </button>
    </div>
  );
}
