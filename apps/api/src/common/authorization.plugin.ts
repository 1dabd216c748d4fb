import type { ApolloServerPlugin } from '@apollo/server';
import type { AuthUser } from '@podium/domain';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  getNamedType,
  isObjectType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { GRAPHQL_RULES, meets, refusalText, staticRequirement, unclassifiedText, type AccessRule, type StaticRequirement } from './authorization';

/** What an operation needs, computed once per parsed operation. */
export interface OperationAccess {
  /** `Type.field` coordinates the operation selects that the classification lacks. */
  unclassified: string[];
  /** Each static requirement of the operation with the first coordinate that imposes it. */
  requirements: Map<Exclude<StaticRequirement, 'none'>, string>;
}

/**
 * Every `Type.field` an operation selects (fragments expanded; introspection's `__` fields are
 * public and not walked) with its rule from the classification.
 */
export function operationAccess(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, rules: ReadonlyMap<string, AccessRule> = GRAPHQL_RULES): OperationAccess {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const access: OperationAccess = { unclassified: [], requirements: new Map() };
  const seen = new Set<string>();
  const root =
    operation.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : operation.operation === OperationTypeNode.SUBSCRIPTION ? schema.getSubscriptionType() : schema.getQueryType();
  const visit = (type: GraphQLObjectType, set: SelectionSetNode, spread: ReadonlySet<string>): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name.startsWith('__')) continue;
        const coordinate = `${type.name}.${name}`;
        if (!seen.has(coordinate)) {
          seen.add(coordinate);
          const rule = rules.get(coordinate);
          if (rule === undefined) access.unclassified.push(coordinate);
          else {
            const need = staticRequirement(rule);
            if (need !== 'none' && !access.requirements.has(need)) access.requirements.set(need, coordinate);
          }
        }
        const field = type.getFields()[name];
        const next = field ? getNamedType(field.type) : undefined;
        if (sel.selectionSet && next && isObjectType(next)) visit(next, sel.selectionSet, spread);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        if (on && isObjectType(on)) visit(on, sel.selectionSet, spread);
      } else {
        const name = sel.name.value;
        const fragment = fragments.get(name);
        if (!fragment || spread.has(name)) continue;
        const on = schema.getType(fragment.typeCondition.name.value);
        if (on && isObjectType(on)) visit(on, fragment.selectionSet, new Set([...spread, name]));
      }
    }
  };
  if (root) visit(root, operation.selectionSet, new Set());
  return access;
}

/** Checks an operation's needs against the caller; throws the GraphQL error to answer with. */
export function assertOperationAllowed(access: OperationAccess, user: AuthUser | null): void {
  const [first] = access.unclassified;
  if (first !== undefined) throw new GraphQLError(unclassifiedText(`'${first}'`), { extensions: { code: 'FORBIDDEN', unclassified: access.unclassified } });
  for (const [need, coordinate] of access.requirements) {
    if (meets(need, user)) continue;
    throw new GraphQLError(refusalText(`'${coordinate}'`, need, user), { extensions: { code: user ? 'FORBIDDEN' : 'UNAUTHENTICATED', field: coordinate } });
  }
}

/**
 * Deny by default for GraphQL: before anything resolves, every field the operation selects
 * must be classified and the caller must meet each rule's static part. The walk is cached per
 * parsed operation (Apollo reuses parsed documents), so a repeated query costs a WeakMap get;
 * the caller is authenticated here only when some rule needs it (public board queries do no
 * database work here).
 */
export function authorizationPlugin(authenticate: (req: unknown) => Promise<AuthUser | null>): ApolloServerPlugin<{ req?: unknown }> {
  const cache = new WeakMap<OperationDefinitionNode, OperationAccess>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, contextValue }) {
          if (!operation) return;
          let access = cache.get(operation);
          if (!access) {
            access = operationAccess(schema, document, operation);
            cache.set(operation, access);
          }
          if (access.unclassified.length === 0 && access.requirements.size === 0) return;
          let user: AuthUser | null = null;
          if (access.requirements.size > 0) {
            try {
              user = await authenticate(contextValue.req);
            } catch (e) {
              throw new GraphQLError(e instanceof Error ? e.message : 'unauthenticated', { extensions: { code: 'UNAUTHENTICATED' } });
            }
          }
          assertOperationAllowed(access, user);
        },
      };
    },
  };
}
