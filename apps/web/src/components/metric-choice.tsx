import type { MetricsQuery } from '../graphql/generated';

type Metric = MetricsQuery['metrics'][number];

/**
 * The metric checkboxes of the organise forms (create and edit a task): one box per configurable
 * metric of the registry, in registry order; `chosen` keeps the click order (the first is the
 * primary metric). One component for both forms, so they cannot drift apart.
 */
export function MetricChoice({ legend, metrics, chosen, onChange }: { legend: string; metrics: readonly Metric[]; chosen: readonly string[]; onChange: (chosen: string[]) => void }) {
  const configurable = metrics.filter((m) => m.configurable);
  const toggle = (name: string) => onChange(chosen.includes(name) ? chosen.filter((x) => x !== name) : [...chosen, name]);
  return (
    <fieldset>
      <legend>{legend}</legend>
      {configurable.map((m) => (
        <label key={m.name} className="check">
          <input type="checkbox" checked={chosen.includes(m.name)} onChange={() => toggle(m.name)} /> {m.displayName}
        </label>
      ))}
    </fieldset>
  );
}
