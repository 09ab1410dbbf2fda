/** A time series drawn by uPlot, sized to its container (redrawn when the container's width changes). */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface Series {
  label: string;
  values: Array<number | null>;
  color: string;
  /** Formats a value for the legend and the axis. */
  format: (value: number) => string;
}

export function TimeChart(props: { times: number[]; series: Series[]; label: string; height?: number }) {
  const host = useRef<HTMLDivElement>(null);
  // Redrawn when the data changes, not at every render of the page around it.
  const signature = `${props.times.join(",")}|${props.series.map((s) => `${s.label}:${s.values.join(",")}`).join("|")}`;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const axis = { stroke: "#a9b8c6", grid: { stroke: "#24384a" }, ticks: { stroke: "#24384a" } };
    const first = props.series[0];
    const options: uPlot.Options = {
      width: Math.max(200, element.clientWidth),
      height: props.height ?? 240,
      series: [
        {},
        ...props.series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          value: (_u: uPlot, v: number | null) => (v === null ? "–" : s.format(v)),
        })),
      ],
      axes: [
        axis,
        {
          ...axis,
          size: 70,
          values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (first ? first.format(t) : String(t))),
        },
      ],
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
    };
    const chart = new uPlot(options, [props.times, ...props.series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(200, element.clientWidth), height: props.height ?? 240 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [signature, props.height]);
  return <div class="chart" ref={host} role="img" aria-label={props.label} />;
}
