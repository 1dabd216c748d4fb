import { toErrorDetails } from './graphql-client';

describe('toErrorDetails', () => {
  it('reads the code, field and line of GraphQL errors', () => {
    expect(toErrorDetails([{ message: 'line 3: missing "id"', extensions: { code: 'INVALID_INPUT', line: 3, field: 'content' } }])).toEqual([
      { message: 'line 3: missing "id"', code: 'INVALID_INPUT', field: 'content', line: 3 },
    ]);
  });

  it('reads the REST error body the upload endpoint sends', () => {
    expect(toErrorDetails({ error: 'line 7: not valid JSON', code: 'INVALID_INPUT', line: 7 })).toEqual([{ message: 'line 7: not valid JSON', code: 'INVALID_INPUT', field: null, line: 7 }]);
  });
});
