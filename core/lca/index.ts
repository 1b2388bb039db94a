/**
 * LCA results: select product instances, recompute and poll (spec rules for results), export to Excel, and
 * the chart data for the UI. No electron import; driven by the desktop app and by `supply-loader lca`.
 */
export { selectInstances, instanceCodesFromWorkbook, cleanCodes, describeSelector } from './select.js';
export type { InstanceSelector, Selection, SelectOptions, UnknownCodes } from './select.js';
export { runLca, pollUntilSettled } from './run.js';
export type { RunLcaOptions, LcaProgressEvent, LcaInstanceState, PollOptions } from './run.js';
export { writeLcaWorkbook, lcaWorkbookBuffer } from './workbook/index.js';
export type { LcaExportOptions, LcaExportStats } from './workbook/index.js';
export { gwpChartData } from './chart.js';
export type { GwpChartData, GwpSeries, GwpPoint } from './chart.js';
export {
  readResults,
  readResultElement,
  serviceCurrentYear,
  blockerAction,
  blockerNeedsAction,
  summarize,
} from './model.js';
export type {
  SelectedInstance,
  InstanceLca,
  InstanceOutcome,
  LcaReport,
  LcaRunSummary,
  ResultYear,
  ImpactValue,
  ResultBlocker,
  BreakdownEntry,
  BreakdownContext,
  ComponentInfo,
} from './model.js';
export {
  CORE_INDICATORS,
  GWP_TOTAL,
  INDICATOR_INFO,
  MODULE_SELECTIONS,
  indicatorInfo,
  orderIndicators,
  orderModules,
} from './indicators.js';
export type { IndicatorInfo, ModuleSelection } from './indicators.js';
export {
  declaredUnitLabel,
  perDeclaredUnit,
  moduleValue,
  hotspotRows,
  hotspotSlices,
  topContributors,
  trendRows,
  lcaChartData,
  componentLabel,
  NO_QUANTITY_NOTE,
  ZERO_QUANTITY_NOTE,
} from './analysis.js';
export type {
  PerUnit,
  HotspotRow,
  HotspotSlice,
  TrendRow,
  LcaChartData,
  LcaChartSeries,
  LcaChartPoint,
  ChartBasis,
} from './analysis.js';
export { resolveBreakdownContext, BREAKDOWN_NO_SCOPE, BREAKDOWN_NOT_RETURNED } from './hotspots.js';
export { flattenInto, unknownFields, type CellValue, type FlatRecord } from './flatten.js';
