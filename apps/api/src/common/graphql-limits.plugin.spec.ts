import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { queryCost } from './graphql-limits.plugin';
import { defined } from '../../../../test/support/defined';

function cost(source: string) {
  const doc = parse(source);
  const op = defined(doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION));
  const fragments = Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  return queryCost(op, fragments);
}

describe('queryCost', () => {
  it('counts depth and fields of a plain query', () => {
    expect(cost('{ tasks { slug phases { id name } } }')).toEqual({ depth: 3, fields: 5 });
  });
  it('expands fragments (each use counts) and inline fragments without adding depth', () => {
    expect(cost('query { a: tasks { ...F } b: tasks { ...F } } fragment F on Task { slug phases { ... on Phase { id } } }')).toEqual({ depth: 3, fields: 8 });
  });
  it('ignores introspection fields', () => {
    expect(cost('{ __schema { types { name fields { type { ofType { ofType { name } } } } } } }')).toEqual({ depth: 0, fields: 0 });
  });
});
