import type { SqlRow } from '../../sim/ledger';

/** A small read-only table of SQL rows (values as text). */
export function RowsTable({ caption, columns, rows, testId, empty = 'no rows' }: { caption: string; columns: string[]; rows: readonly (SqlRow | unknown[])[]; testId?: string; empty?: string }) {
  return (
    <table className="sql-table" data-testid={testId} data-rows={rows.length}>
      <caption>
        {caption} <span className="muted">({rows.length} row{rows.length === 1 ? '' : 's'})</span>
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
