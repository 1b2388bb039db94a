/**
 * GWP-total per year per instance (recharts): one line per instance, a gap where a year has no value (blocked,
 * not computed — never drawn as 0), the current year marked as partial. A table with the same numbers follows
 * for keyboard and screen-reader users.
 */
import { indicatorUnit } from '../../i18n/core-text.js';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { LcaChartView } from '../../../../core/ipc/contract.js';
import { formatAxisTick, formatSignificant } from '../../components/format.js';
import { useI18n } from '../../i18n/index.js';
import { chartModel } from './chartData.js';
import { DataTable } from '../../components/DataTable.js';

/**
 * `boxClassName`: the analysis card's chart is told apart from the GWP-total card's (E2E locators). `text`: the
 * title and caption of a chart of another indicator or modules (chartText); GWP-total's by default.
 */
export function GwpChart({
  chart,
  boxClassName = 'chart-box',
  text,
}: {
  chart: LcaChartView;
  boxClassName?: string;
  text?: { title: string; caption: string };
}) {
  const { t, locale } = useI18n();
  const m = chartModel(chart);
  const title = text?.title ?? t('lca.chartTitle');
  const caption = text?.caption ?? t('lca.chartCaption');
  const unit = indicatorUnit(chart.unit ?? 'kg CO2 eq.', locale);
  if (!m.hasValues) return <p className="muted">{t('lca.chartEmpty')}</p>;
  return (
    <figure className="chart">
      <p className="chart-axis-unit">{unit}</p>
      <div className={boxClassName}>
        <ResponsiveContainer width="100%" height={340}>
          <LineChart
            data={m.rows}
            margin={{ top: 10, right: 24, bottom: 8, left: 16 }}
            title={title}
            desc={caption}
            aria-label={title}
          >
            <CartesianGrid strokeDasharray="3 3" className="chart-grid" />
            <XAxis
              dataKey="year"
              type="number"
              domain={['dataMin', 'dataMax']}
              ticks={m.years}
              interval={0}
              allowDecimals={false}
              tickFormatter={(y: number) => String(y)}
            />
            <YAxis width={80} tickFormatter={(v: number) => formatAxisTick(v, locale)} />
            <Tooltip
              formatter={(v) => (typeof v === 'number' ? `${formatSignificant(v, locale)} ${unit}` : t('lca.noValue'))}
              labelFormatter={(y) =>
                Number(y) === m.partialYear ? `${String(y)} (${t('lca.partialYear')})` : String(y)
              }
              wrapperClassName="chart-tooltip"
              separator=": "
            />
            <Legend />
            {m.partialYear !== null && (
              <ReferenceLine
                x={m.partialYear}
                strokeDasharray="4 4"
                className="chart-partial"
                label={{ value: t('lca.partialYear'), position: 'insideTopLeft', className: 'chart-unit' }}
              />
            )}
            {m.series.map((s) => (
              <Line
                key={s.dataKey}
                type="monotone"
                dataKey={s.dataKey}
                name={s.name}
                stroke={s.colour}
                strokeWidth={2}
                dot={{ r: 3 }}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">{caption}</figcaption>
      <details className="chart-table">
        <summary>{t('lca.chartAsTable')}</summary>
        <DataTable className="compact" columns={[t('lca.year'), ...m.series.map((s) => ({ head: s.name, num: true }))]}>
          {m.rows.map((r) => (
            <tr key={String(r.year)}>
              <th scope="row">
                {r.year}
                {r.year === m.partialYear ? ` (${t('lca.partialYear')})` : ''}
              </th>
              {m.series.map((s) => (
                <td key={s.dataKey} className="num">
                  {r[s.dataKey] === null || r[s.dataKey] === undefined
                    ? '—'
                    : formatSignificant(r[s.dataKey] as number, locale)}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      </details>
    </figure>
  );
}
