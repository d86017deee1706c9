/** A least-squares line through a series, with how far the points spread around it. */
export interface Fit {
  /** Units per x (per minute in the soak). */
  slope: number;
  intercept: number;
  /** Standard deviation of the points around the line: the noise a slope is judged against. */
  residualSd: number;
  /** Largest minus smallest point. */
  range: number;
  /** The slope times the span of x: how much the line rises over the series. */
  rise: number;
  points: number;
}

export function fitLine(points: [number, number][]): Fit {
  const n = points.length;
  if (n < 2) return { slope: NaN, intercept: NaN, residualSd: NaN, range: NaN, rise: NaN, points: n };
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const ss = points.reduce((a, [x, y]) => a + (y - (intercept + slope * x)) ** 2, 0);
  const ys = points.map(([, y]) => y);
  const xs = points.map(([x]) => x);
  return {
    slope,
    intercept,
    residualSd: Math.sqrt(ss / Math.max(1, n - 2)),
    range: Math.max(...ys) - Math.min(...ys),
    rise: slope * (Math.max(...xs) - Math.min(...xs)),
    points: n,
  };
}
