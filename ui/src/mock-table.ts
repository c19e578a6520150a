// The table view's mock: a few table cells of the mock library, read by field name (row or
// column), with the reason a document has none.

import { DOCS } from "./mock-library";
import type { ExtractedDocument, ExtractedValue } from "./types";

const CELLS: { docId: number; page: number; row: string; column: string; value: string; unit: string | null; names: string[] }[] = [
  { docId: 1, page: 12, row: "All heat pumps", column: "Seasonal performance factor", value: "3.4", unit: null, names: ["spf", "seasonal performance factor"] },
  { docId: 1, page: 14, row: "Total", column: "Heat pumps", value: "42", unit: "count", names: ["heat pumps"] },
  { docId: 4, page: 9, row: "Heating capacity", column: "aroTHERM plus 7 kW", value: "6.9", unit: "power", names: ["heating capacity", "capacity"] },
];

export function mockExtract(fields: string[], period: string | null): ExtractedDocument[] {
  return DOCS.map((d) => ({
    doc_id: d.doc_id,
    path: d.path,
    title: d.title,
    values: fields.map((field): ExtractedValue => {
      const cell = CELLS.find((c) => c.docId === d.doc_id && c.names.includes(field.toLowerCase()));
      if (!cell) {
        const why = period ? `no table row or column matches "${field}" for ${period}` : `no table row or column matches "${field}"`;
        return {
          field, value: null, number: null, unit: null, scale: null, row: null, column: null, page: null, quote: null,
          byte_start: null, byte_end: null, cell_start: null, cell_end: null, header_start: null, header_end: null, reason: why,
        };
      }
      return {
        field,
        value: cell.value,
        number: Number(cell.value.replace(/,/g, "")),
        unit: cell.unit,
        scale: null,
        row: cell.row,
        column: cell.column,
        page: cell.page,
        quote: `${cell.row} ${cell.value}`,
        byte_start: 0,
        byte_end: cell.row.length + cell.value.length + 1,
        cell_start: cell.row.length + 1,
        cell_end: cell.row.length + cell.value.length + 1,
        header_start: null,
        header_end: null,
        reason: null,
      };
    }),
  }));
}
