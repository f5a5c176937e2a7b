// The spreadsheet metric family (OSWorld table.py): compare_table with all its rule types, and
// compare_conference_city_in_order.
import type { Metric } from '../../registry.ts';
import { compareTable } from './compare-table.ts';
import { compareConferenceCityInOrder } from './conference-city.ts';

export { compareTable, compareTableDetailed,  type TableFailure } from './compare-table.ts';
export { compareConferenceCityInOrder } from './conference-city.ts';

export const xlsxMetrics: Record<string, Metric> = {
  compare_table: compareTable,
  compare_conference_city_in_order: compareConferenceCityInOrder,
};
