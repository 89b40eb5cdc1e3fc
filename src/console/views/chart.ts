import { html } from 'ghtml';

/**
 * A stacked bar chart drawn as SVG on the server: one bar per day, one colour per series. Colours come from the
 * stylesheet (classes s0..s7), so the chart needs no inline style and passes a strict CSP. Screen readers get a
 * summary label on the image and the numbers in the table beside it.
 */
export interface StackedBars {
  title: string;
  /** x-axis labels, in order. */
  categories: string[];
  series: { name: string; values: number[] }[];
}

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 34, left: 40 };
const COLOURS = 8;

export function stackedBarChart(chart: StackedBars): string {
  const totals = chart.categories.map((_, i) => chart.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const max = niceCeiling(Math.max(2, ...totals));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, chart.categories.length);
  const barWidth = Math.max(4, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / max) * plotHeight;

  const bars = barRects(chart, { slot, barWidth, y });
  const ticks = [0, max / 2, max].map(
    (v) =>
      html`<g class="tick"
        ><line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line
        ><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text></g
      >`,
  );
  const labels = chart.categories.map((c, i) =>
    i % labelEvery(chart.categories.length) === 0
      ? html`<text
          class="label"
          x="${(PAD.left + i * slot + slot / 2).toFixed(1)}"
          y="${HEIGHT - 12}"
          text-anchor="middle"
          >${c.slice(5)}</text
        >`
      : '',
  );
  const total = totals.reduce((a, b) => a + b, 0);
  const summary = `${chart.title}: ${total} in all over ${chart.categories.length} days, ${chart.series.length} series.`;
  const legend = chart.series.map(
    (s, k) => html`<li><span class="swatch s${k % COLOURS}" aria-hidden="true"></span>${s.name}</li>`,
  );
  return html`<figure class="chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}" preserveAspectRatio="xMidYMid meet">
      !${ticks}!${bars}!${labels}
    </svg>
    <figcaption>${chart.title}</figcaption>
    !${
      chart.series.length
        ? html`<ul class="legend">
            !${legend}
          </ul>`
        : html`<p class="empty">No donations in this period.</p>`
    }
  </figure>`;
}

/** One rectangle per non-zero value, each series stacked on the ones before it in its category. */
function barRects(
  chart: StackedBars,
  { slot, barWidth, y }: { slot: number; barWidth: number; y: (value: number) => number },
) {
  return chart.categories.flatMap((category, i) => {
    let base = 0;
    const x = PAD.left + i * slot + (slot - barWidth) / 2;
    return chart.series.map((s, k) => {
      const value = s.values[i] ?? 0;
      if (value === 0) return '';
      const top = y(base + value);
      const height = y(base) - top;
      base += value;
      return html`<rect
        class="s${k % COLOURS}"
        x="${x.toFixed(1)}"
        y="${top.toFixed(1)}"
        width="${barWidth.toFixed(1)}"
        height="${height.toFixed(1)}"
        ><title>${category} · ${s.name}: ${value}</title></rect
      >`;
    });
  });
}

/** 1, 2 or 5 times a power of ten, so the axis reads in round numbers. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

const labelEvery = (count: number) => (count > 10 ? 2 : 1);
