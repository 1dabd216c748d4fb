import { fileNameFrom } from './download-link';

describe('fileNameFrom', () => {
  it('takes the file name the API sends in Content-Disposition', () => {
    expect(fileNameFrom('attachment; filename="wmt17-de-en-test-scores.csv"', 'scores.csv')).toBe('wmt17-de-en-test-scores.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''caf%C3%A9.jsonl", 'scores.jsonl')).toBe('café.jsonl');
  });

  it('falls back to the given name without the header', () => {
    expect(fileNameFrom(null, 'scores.csv')).toBe('scores.csv');
  });
});
