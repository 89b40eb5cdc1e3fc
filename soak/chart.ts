import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Window } from './windows.js';

/**
 * The soak over time, one panel per measure (requests/s, p99, service RSS, the backlog of each queue), drawn by
 * Vega-Lite and rendered to SVG headless (no browser, no canvas).
 */
export async function drawChart(windows: Window[], title: string): Promise<string> {
  // Every queue that ever had a job waiting gets its own line in the backlog panel; the others stay at zero.
  const busy = new Set(
    windows.flatMap((w) => Object.entries(w.queues).flatMap(([q, s]) => (s.waiting > 0 ? [q] : []))),
  );
  const rows = windows.flatMap((w) => {
    const minute = Math.round((w.at / 60) * 100) / 100;
    return [
      { minute, measure: 'requests/s', series: 'requests/s', value: w.requestsPerSecond },
      { minute, measure: 'p99 latency (ms)', series: 'p99', value: w.p99 },
      { minute, measure: 'service RSS (MB)', series: 'RSS', value: w.rssMb ?? 0 },
      ...Object.entries(w.queues)
        .filter(([queue]) => busy.has(queue))
        .map(([queue, q]) => ({ minute, measure: 'jobs waiting, by queue', series: queue, value: q.waiting })),
    ];
  });
  const spec: vl.TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values: rows },
    facet: { row: { field: 'measure', type: 'nominal', title: null, sort: null } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 640,
      height: 110,
      mark: { type: 'line', point: { size: 12 } },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes since the start of the measured run' },
        y: { field: 'value', type: 'quantitative', title: null, scale: { zero: true } },
        color: { field: 'series', type: 'nominal', title: 'queue', legend: { orient: 'bottom', columns: 3 } },
      },
    },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
