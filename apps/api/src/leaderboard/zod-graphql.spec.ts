import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory, Query, Resolver } from '@nestjs/graphql';
import { printType, type GraphQLObjectType } from 'graphql';
import { z } from 'zod';
import { documentCoordinates, graphqlTypes } from './zod-graphql';

// A small document written the way @podium/leaderboard's is: the GraphQL type printed from it is
// the one a hand-written class would give (expected text written by hand from the zod below).
const point = z.object({ x: z.number(), n: z.number().int().nullable() }).meta({ id: 'ZgPoint', description: 'A point' });
const doc = z
  .object({
    id: z.string().meta({ graphql: 'ID' }),
    at: point.describe('Where it is'),
    trail: z.array(point),
    note: z.string().nullable().describe('In words'),
    hidden: z.boolean(),
  })
  .meta({ id: 'ZgDoc' });

describe('GraphQL types from the zod document', () => {
  it('maps ID, Int, Float, nullability, lists, names and descriptions, and leaves out what is omitted', async () => {
    const types = graphqlTypes([doc], { enums: [], omit: new Set(['ZgDoc.hidden']) });
    const Doc = types.get(doc);
    @Resolver()
    class ProbeResolver {
      @Query(() => Doc)
      zg(): null {
        return null;
      }
    }
    const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, { logger: false });
    const schema = await app.get(GraphQLSchemaFactory).create([ProbeResolver]);
    await app.close();
    expect(printType(schema.getType('ZgDoc') as GraphQLObjectType)).toBe(
      ['type ZgDoc {', '  id: ID!', '', '  """Where it is"""', '  at: ZgPoint!', '  trail: [ZgPoint!]!', '', '  """In words"""', '  note: String', '}'].join('\n'),
    );
    expect(printType(schema.getType('ZgPoint') as GraphQLObjectType)).toBe(['"""A point"""', 'type ZgPoint {', '  x: Float!', '  n: Int', '}'].join('\n'));
  });

  it('refuses an object without a type name, naming its fields', () => {
    expect(() => graphqlTypes([z.object({ a: z.string() })], { enums: [], omit: new Set() })).toThrow('has no meta({ id }) (fields: a)');
  });

  it("lists every field of the document's types as Type.field, a described copy of a type under the type's name", () => {
    expect([...documentCoordinates([doc])].sort()).toEqual(['ZgDoc.at', 'ZgDoc.hidden', 'ZgDoc.id', 'ZgDoc.note', 'ZgDoc.trail', 'ZgPoint.n', 'ZgPoint.x']);
  });
});
