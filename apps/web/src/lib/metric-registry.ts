import type { MetricsQuery } from '../graphql/generated';

/** The facts of one metric the web reads from the API's `metrics` query (the libs/metrics registry). */
export type MetricFacts = Pick<MetricsQuery['metrics'][number], 'name' | 'displayName' | 'higherIsBetter'>;

let facts = new Map<string, MetricFacts>();

/** Replaces the registry the labels read; the app calls it once the `metrics` query answers. */
export function setMetricFacts(list: readonly MetricFacts[]): void {
  facts = new Map(list.map((f) => [f.name, f]));
}

/** The registry's facts for a metric name, or undefined before the query answers or for other keys. */
export function metricFacts(name: string): MetricFacts | undefined {
  return facts.get(name);
}
