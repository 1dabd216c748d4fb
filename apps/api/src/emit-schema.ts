// Writes apps/api/schema.graphql from the resolvers, without a database (CI and the web app's codegen).
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { RESOLVERS, SCHEMA_FILE, schemaFileText } from './graphql-schema';

async function emit(): Promise<void> {
  const app = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, { logger: false });
  const schema = await app.get(GraphQLSchemaFactory).create([...RESOLVERS]);
  await app.close();
  const file = path.resolve(__dirname, '../../..', SCHEMA_FILE);
  writeFileSync(file, schemaFileText(schema));
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}

void emit();
