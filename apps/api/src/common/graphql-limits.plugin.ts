import type { ApolloServerPlugin } from '@apollo/server';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { GraphQLError, Kind, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationContext, type ValidationRule } from 'graphql';

export interface QueryCost {
  depth: number;
  fields: number;
}

/**
 * Depth (nesting of selections) and field count of an operation, fragments expanded.
 * Introspection fields (`__schema`, `__type`) are not counted: tools send deep ones.
 */
export function queryCost(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): QueryCost {
  let fields = 0;
  let deepest = 0;
  const visit = (set: SelectionSetNode, depth: number, seen: ReadonlySet<string>): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        fields++;
        deepest = Math.max(deepest, depth);
        if (sel.selectionSet) visit(sel.selectionSet, depth + 1, seen);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.selectionSet, depth, seen);
      } else {
        const name = sel.name.value;
        const fragment = fragments[name];
        // A fragment cycle is invalid GraphQL; validation reports it, so it is not followed here.
        if (fragment && !seen.has(name)) visit(fragment.selectionSet, depth, new Set([...seen, name]));
      }
      if (fields > 1_000_000) return;
    }
  };
  visit(operation.selectionSet, 1, new Set());
  return { depth: deepest, fields };
}

/** Refuses operations deeper or wider than the limits with 400 and code QUERY_TOO_COMPLEX. */
export function graphqlLimitsPlugin(limits: { maxDepth: number; maxFields: number }): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
          const cost = queryCost(operation, fragments);
          const problem =
            cost.depth > limits.maxDepth
              ? `the query nests ${cost.depth} levels deep; at most ${limits.maxDepth} are allowed`
              : cost.fields > limits.maxFields
                ? `the query selects ${cost.fields} fields; at most ${limits.maxFields} are allowed`
                : null;
          if (problem) throw new GraphQLError(problem, { extensions: { code: 'QUERY_TOO_COMPLEX', ...cost, http: { status: 400 } } });
        },
      };
    },
  };
}

export interface ArmorLimits {
  /** Most aliases in one operation (fragments expanded). */
  maxAliases: number;
  /** Highest cost (graphql-armor's model: 2 per object field, 1 per scalar, ×1.5 per nesting level). */
  maxCost: number;
}

/**
 * Alias and cost limits from graphql-armor, as validation rules: an operation past either fails
 * validation (400 GRAPHQL_VALIDATION_FAILED) before anything resolves. Aliases are what let one
 * request ask for the same expensive field hundreds of times under the depth and field limits.
 */
export function graphqlArmorRules(limits: ArmorLimits): ValidationRule[] {
  // Reported as validation errors rather than thrown (the rules' default), so that each is one
  // entry of `errors` beside the others.
  const reject = { propagateOnRejection: false, onReject: [(ctx: ValidationContext | null, error: GraphQLError) => ctx?.reportError(error)] };
  return [
    maxAliasesRule({ n: limits.maxAliases, exposeLimits: true, ...reject }),
    costLimitRule({ maxCost: limits.maxCost, ignoreIntrospection: true, exposeLimits: true, ...reject }),
  ];
}
