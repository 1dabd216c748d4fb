import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nliAvailability } from './availability';
import { copyTestModel, TEST_MODEL_DIR } from './testing/test-model';

describe('nliAvailability', () => {
  it('reports the committed test model as available', () => {
    expect(nliAvailability(TEST_MODEL_DIR)).toEqual({ available: true });
  });

  it('reports a missing model as unavailable and names the fetch command', () => {
    const a = nliAvailability('/nonexistent/models/nli-deberta-v3-xsmall');
    expect(a.available).toBe(false);
    expect(a.reason).toContain('is not present');
    expect(a.reason).toContain('npm run -s podium -- models fetch nli-deberta-v3-xsmall');
  });

  it('reports a model without NLI labels as unavailable', () => {
    const { modelDir } = copyTestModel();
    writeFileSync(join(modelDir, 'config.json'), JSON.stringify({ id2label: { 0: 'positive', 1: 'negative' } }));
    const a = nliAvailability(modelDir);
    expect(a.available).toBe(false);
    expect(a.reason).toMatch(/unusable: .*lacks entailment, neutral, contradiction/);
  });
});
