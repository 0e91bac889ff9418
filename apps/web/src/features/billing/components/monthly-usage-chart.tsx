import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { chartRows, type MonthlyUsageView } from '../monthly-usage';
import { formatMau } from '../plan-usage';

/**
 * The lines of the last 12 months, one per application. Loaded on its own when there is usage to
 * draw: the chart library weighs about 125 kB of gzip JavaScript. It is one image to assistive
 * technology, named by `label`; the table beside it holds the figures.
 */
export default function MonthlyUsageChart({
  view,
  label,
  height,
}: {
  view: MonthlyUsageView;
  label: string;
  height: number;
}) {
  return (
    <LineChart
      role="img"
      aria-label={label}
      h={height}
      data={chartRows(view)}
      dataKey="month"
      series={view.series.map(({ key, label: name, color }) => ({ name: key, label: name, color }))}
      curveType="linear"
      valueFormatter={formatMau}
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      // Keyboard users and screen readers read the table instead of stepping through the points.
      accessibilityLayer={false}
      textColor="gray.7"
    />
  );
}
