import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function literal(node: ValueNode): Json {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(literal);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      throw new TypeError(`JSONObject cannot represent ${node.kind}`);
  }
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('JSONObject must be an object');
  }
  return value as Record<string, unknown>;
}

/** A JSON object (metric options); validated by the metric config schema, not by GraphQL. */
export const GraphQLJSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object, e.g. metric options such as { "tokenize": "13a" }',
  serialize: asObject,
  parseValue: asObject,
  parseLiteral: (node) => asObject(literal(node)),
});
