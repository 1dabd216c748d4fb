import { loadApiConfig } from '@podium/config';
import path from 'node:path';
import { NliAvailabilityService } from './nli-availability.service';

const repoModels = path.resolve(__dirname, '../../../../models');
const service = (modelsDir: string) =>
  new NliAvailabilityService({ ...loadApiConfig({ DATABASE_URL: 'postgresql://x@localhost/x' }), PODIUM_MODELS_DIR: modelsDir });

describe('NliAvailabilityService', () => {
  it('reports the committed test model as available, by default and by name', () => {
    const s = service(repoModels);
    expect(s.modelFor({})).toBe('test-nli-tiny');
    expect(s.availability(s.modelFor({}))).toEqual({ available: true });
  });

  it('names the fetch command for a missing model without showing server paths', () => {
    const s = service(repoModels);
    const r = s.availability(s.modelFor({ model: 'nli-deberta-v3-xsmall' }));
    expect(r.available).toBe(false);
    expect(r.reason).toBe(
      "NLI model 'nli-deberta-v3-xsmall' is not present in models/nli-deberta-v3-xsmall; fetch it with: npm run -s podium -- models fetch nli-deberta-v3-xsmall",
    );
    expect(r.reason).not.toContain(repoModels);
  });

  it('refuses model names that could leave the models folder', () => {
    expect(service(repoModels).availability('../secrets')).toMatchObject({ available: false, reason: expect.stringMatching(/not a valid NLI model name/) });
  });
});
