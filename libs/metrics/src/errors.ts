/**
 * Bad input to a metric (streams of different lengths, no reference stream, an unknown
 * option): the message is one line a user can act on.
 * Example: `throw new MetricInputError('reference stream 2 has 99 lines but there are 100 hypotheses')`.
 */
export class MetricInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricInputError';
  }
}
