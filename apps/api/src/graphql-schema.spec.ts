import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RESOLVERS, SCHEMA_FILE, schemaFileText } from './graphql-schema';

// Boots the Nest GraphQL module to emit the schema: seconds on a loaded 2-core machine, over Jest's 5 s default.
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');

describe('committed GraphQL schema', () => {
  it('matches the schema built from the resolvers (regenerate: node -r @swc-node/register apps/api/src/emit-schema.ts)', async () => {
    const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, { logger: false });
    try {
      const schema = await app.get(GraphQLSchemaFactory).create([...RESOLVERS]);
      const committed = readFileSync(path.join(ROOT, SCHEMA_FILE), 'utf8');
      expect(committed).toBe(schemaFileText(schema));
    } finally {
      await app.close();
    }
  });
});
