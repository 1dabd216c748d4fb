/** Output index of each NLI class in a model's logits. */
export interface NliLabelIndex {
  entailment: number;
  neutral: number;
  contradiction: number;
}

/**
 * Finds entailment/neutral/contradiction in a Hugging Face `config.json` `id2label`
 * (case-insensitive; never assumes an order). A model without exactly these three named
 * labels is refused.
 *
 * @example labelIndex({ 0: 'CONTRADICTION', 1: 'NEUTRAL', 2: 'ENTAILMENT' }) // { entailment: 2, neutral: 1, contradiction: 0 }
 */
export function labelIndex(id2label: Record<string, unknown> | undefined): NliLabelIndex {
  if (!id2label || typeof id2label !== 'object') {
    throw new Error('config.json has no id2label: cannot tell which output is entailment, neutral or contradiction');
  }
  const found: Partial<Record<keyof NliLabelIndex, number>> = {};
  for (const [id, label] of Object.entries(id2label)) {
    const key = String(label).trim().toLowerCase();
    if (key === 'entailment' || key === 'neutral' || key === 'contradiction') {
      if (found[key] !== undefined) throw new Error(`config.json id2label names '${key}' twice`);
      found[key] = Number(id);
    }
  }
  const missing = (['entailment', 'neutral', 'contradiction'] as const).filter((k) => found[k] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `config.json id2label ${JSON.stringify(id2label)} lacks ${missing.join(', ')}: not a 3-way NLI model`,
    );
  }
  return found as NliLabelIndex;
}
