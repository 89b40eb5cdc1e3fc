import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Window } from './windows.js';

/**
 * The soak over time, one panel per measure (requests/s, p99, service RSS, reconciliation backlog), drawn by
 * Vega-Lite and rendered to SVG headless (no browser, no canvas).
 */
export async function drawChart(windows: Window[], title: string): Promise<string> {
  const rows = windows.flatMap((w) => {
    const minute = Math.round((w.at / 60) * 100) / 100;
    const backlog = Object.values(w.queues).reduce((sum, q) => sum + q.waiting, 0);
    return [
      { minute, measure: 'requests/s', value: w.requestsPerSecond },
      { minute, measure: 'p99 latency (ms)', value: w.p99 },
      { minute, measure: 'service RSS (MB)', value: w.rssMb ?? 0 },
      { minute, measure: 'jobs waiting (all queues)', value: backlog },
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
      },
    },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}
