import type { MetricConfig } from '@podium/contracts';
import { InvalidInputError } from '@podium/domain';
import { MetricInputError, MetricOptionError, validateMetricOptions } from '@podium/metrics';

/**
 * Validates every configured metric's options against the metric registry when a task is
 * created, so a typo fails here, naming the metric and the option, instead of failing every
 * later submission at scoring time. Options are stored as given (defaults stay implicit).
 */
export function checkMetricOptions(metrics: readonly MetricConfig[]): void {
  metrics.forEach((m, i) => {
    try {
      validateMetricOptions(m.name, m.options);
    } catch (e) {
      if (!(e instanceof MetricInputError)) throw e;
      const option = e instanceof MetricOptionError && e.option !== '' ? `.${e.option}` : '';
      const field = `metrics.${i}.options${option}`;
      throw new InvalidInputError(`${field}: metric '${m.key}' (${m.name}): ${e.message}`, { field });
    }
  });
}
