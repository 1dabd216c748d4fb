// GraphQL object types made from a zod schema (ADR 0033): the leaderboard's shape is stated once,
// by the zod document of @podium/leaderboard, and its GraphQL classes are built from it here, so
// neither can drift. The document carries what GraphQL needs besides the shape as zod metadata:
// an object's type name and description (`.meta({ id, description })`), a field's description
// (`.describe()`) and `graphql: 'ID'` for identifiers. Numbers are Int when the schema says
// `.int()`, else Float; enums map to the GraphQL enums given.
import type { Type } from '@nestjs/common';
import { Field, Float, ID, Int, ObjectType, type ReturnTypeFuncValue } from '@nestjs/graphql';
import { z } from 'zod';

interface Meta {
  id?: string;
  description?: string;
  graphql?: string;
}

const metaOf = (s: z.ZodType): Meta => s.meta() ?? {};

export interface ZodGraphqlOptions {
  /** GraphQL enums by the enum-like object the zod schema was made from (`z.enum(PairedTest)`). */
  enums: readonly object[];
  /** `Type.field` paths left to field resolvers (e.g. paging over `Leaderboard.pairs`). */
  omit: ReadonlySet<string>;
}

/**
 * Builds (once per object schema) a GraphQL object type for each root and every object schema it
 * holds (omitted fields included, for their types); returns them by zod schema. Throws on an object schema without `meta({ id })` or a
 * field type it cannot map, naming the field.
 * Example: `graphqlTypes([leaderboardSchema], { enums: [PairedTest], omit: new Set() }).get(intervalSchema)`.
 */
export function graphqlTypes(roots: readonly z.ZodObject[], options: ZodGraphqlOptions): Map<z.ZodObject, Type<unknown>> {
  // A field's `.describe()` on an object schema makes a copy (same shape, the field's description
  // instead of the type's meta): types are keyed by shape, named by the copy that has an id.
  const named = new Map<object, Meta>();
  const byShape = new Map<object, Type<unknown>>();
  const made = new Map<z.ZodObject, Type<unknown>>();
  function collect(s: z.ZodType): void {
    if (s instanceof z.ZodNullable) collect(s.unwrap() as z.ZodType);
    else if (s instanceof z.ZodArray) collect(s.element as z.ZodType);
    else if (s instanceof z.ZodObject) {
      const meta = metaOf(s);
      if (meta.id) {
        if (named.has(s.shape)) return;
        named.set(s.shape, meta);
      }
      for (const f of Object.values<z.ZodType>(s.shape)) collect(f);
    }
  }
  for (const root of roots) collect(root);

  function objectType(obj: z.ZodObject): Type<unknown> {
    const known = byShape.get(obj.shape);
    if (known) {
      made.set(obj, known);
      return known;
    }
    const { id: name, description } = named.get(obj.shape) ?? {};
    if (!name) throw new Error(`a zod object of the leaderboard has no meta({ id }) (fields: ${Object.keys(obj.shape).join(', ')})`);
    // eslint-disable-next-line @typescript-eslint/no-extraneous-class -- a GraphQL object type: its fields are added by the Field decorators below
    const cls = { [name]: class {} }[name] as Type<unknown>;
    byShape.set(obj.shape, cls);
    made.set(obj, cls);
    for (const [field, fieldSchema] of Object.entries<z.ZodType>(obj.shape)) {
      if (options.omit.has(`${name}.${field}`)) continue;
      const { type, nullable } = graphqlType(fieldSchema, `${name}.${field}`);
      const meta = metaOf(fieldSchema);
      const own = meta.id ? undefined : meta.description;
      Field(() => type, { nullable, ...(own ? { description: own } : {}) })(cls.prototype as object, field);
    }
    ObjectType(name, description ? { description } : {})(cls);
    return cls;
  }

  function graphqlType(s: z.ZodType, at: string): { type: ReturnTypeFuncValue; nullable: boolean } {
    if (s instanceof z.ZodNullable) return { type: graphqlType(s.unwrap() as z.ZodType, at).type, nullable: true };
    if (s instanceof z.ZodArray) return { type: [graphqlType(s.element as z.ZodType, at).type], nullable: false };
    return { type: namedType(s, at), nullable: false };
  }

  function namedType(s: z.ZodType, at: string): ReturnTypeFuncValue {
    if (s instanceof z.ZodObject) return objectType(s);
    if (s instanceof z.ZodString) return metaOf(s).graphql === 'ID' ? ID : String;
    if (s instanceof z.ZodNumber) return s.format === 'safeint' || s.format === 'int32' ? Int : Float;
    if (s instanceof z.ZodBoolean) return Boolean;
    if (s instanceof z.ZodDate) return Date;
    if (s instanceof z.ZodEnum) {
      const values = s.enum as object;
      const e = options.enums.find((x) => x === values);
      if (e) return e;
    }
    throw new Error(`${at}: no GraphQL type for a zod ${s.def.type}`);
  }

  for (const root of roots) objectType(root);
  return made;
}

/**
 * Every `Type.field` of the GraphQL types {@link graphqlTypes} makes from `roots` (omitted fields
 * included): the fields whose values are the document's own, not a resolver's reading of
 * something else. Example: `documentCoordinates([leaderboardSchema]).has('LeaderboardSystem.mean')`.
 */
export function documentCoordinates(roots: readonly z.ZodObject[]): Set<string> {
  const named = new Map<object, string>();
  const objects: z.ZodObject[] = [];
  const seen = new Set<z.ZodType>();
  function collect(s: z.ZodType): void {
    if (seen.has(s)) return;
    seen.add(s);
    if (s instanceof z.ZodNullable) collect(s.unwrap() as z.ZodType);
    else if (s instanceof z.ZodArray) collect(s.element as z.ZodType);
    else if (s instanceof z.ZodObject) {
      const id = metaOf(s).id;
      if (id && !named.has(s.shape)) named.set(s.shape, id);
      objects.push(s);
      for (const f of Object.values<z.ZodType>(s.shape)) collect(f);
    }
  }
  for (const root of roots) collect(root);
  const out = new Set<string>();
  for (const obj of objects) {
    const name = named.get(obj.shape);
    if (!name) throw new Error(`a zod object of the leaderboard has no meta({ id }) (fields: ${Object.keys(obj.shape).join(', ')})`);
    for (const field of Object.keys(obj.shape)) out.add(`${name}.${field}`);
  }
  return out;
}
