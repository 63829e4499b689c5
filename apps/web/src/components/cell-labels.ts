import { useEffect } from 'react';

/**
 * The column name of each cell in a row, for phone widths where a table's rows stack and each cell
 * names its column itself. `headers`: the header row's texts with their column spans; `cells`: the
 * row's cells' column spans. A cell that spans every column (a note across the row) gets no name,
 * nor does one past the header's end.
 */
export function columnLabels(headers: readonly { text: string; span: number }[], cells: readonly number[]): string[] {
  const columns = headers.flatMap((h) => Array.from({ length: Math.max(1, h.span) }, () => h.text.trim()));
  let at = 0;
  return cells.map((span) => {
    const label = span >= columns.length ? '' : (columns[at] ?? '');
    at += Math.max(1, span);
    return label;
  });
}

/** Writes each body cell's column name into its data-label, which the phone stylesheet shows before it. */
export function labelTableCells(root: ParentNode): void {
  for (const table of root.querySelectorAll('table')) {
    const headerRow = table.tHead?.rows[table.tHead.rows.length - 1];
    if (!headerRow) continue;
    const headers = [...headerRow.cells].map((c) => ({ text: c.textContent ?? '', span: c.colSpan }));
    for (const body of table.tBodies)
      for (const row of body.rows) {
        const labels = columnLabels(
          headers,
          [...row.cells].map((c) => c.colSpan),
        );
        [...row.cells].forEach((cell, i) => {
          const label = labels[i] ?? '';
          if (label && cell.getAttribute('data-label') !== label) cell.setAttribute('data-label', label);
          else if (!label && cell.hasAttribute('data-label')) cell.removeAttribute('data-label');
        });
      }
  }
}

/**
 * Keeps every table under the page labelled as rows come and go: pages render plain tables, and the
 * labels follow their header row without each page repeating its column names per cell. Only added
 * or removed nodes are watched (not attributes), so writing the labels does not wake it again.
 */
export function useCellLabels(): void {
  useEffect(() => {
    let frame = 0;
    const relabel = () => {
      frame = 0;
      labelTableCells(document);
    };
    relabel();
    const observer = new MutationObserver(() => {
      frame ||= requestAnimationFrame(relabel);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
}
