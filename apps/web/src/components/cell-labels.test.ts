import { describe, expect, it } from 'vitest';
import { columnLabels } from './cell-labels.ts';

const head = (...texts: string[]) => texts.map((text) => ({ text, span: 1 }));

describe('columnLabels', () => {
  it('names each cell after the header column it starts in', () => {
    expect(columnLabels(head('Source', ' Destination ', 'Status'), [1, 1, 1])).toEqual(['Source', 'Destination', 'Status']);
  });
  it('follows column spans in the header and in the row', () => {
    expect(
      columnLabels(
        [
          { text: 'Name', span: 1 },
          { text: 'Actions', span: 2 },
        ],
        [1, 1, 1],
      ),
    ).toEqual(['Name', 'Actions', 'Actions']);
    expect(columnLabels(head('A', 'B', 'C'), [2, 1])).toEqual(['A', 'C']);
  });
  it('leaves a cell across the whole row, or past the header, unnamed', () => {
    expect(columnLabels(head('A', 'B', 'C'), [3])).toEqual(['']);
    expect(columnLabels(head('A'), [1, 1])).toEqual(['', '']);
    expect(columnLabels(head('A', 'B'), [1, 1, 1])).toEqual(['A', 'B', '']);
  });
});
