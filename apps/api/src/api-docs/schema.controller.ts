import { Controller, Get, Header } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { schemaFileText } from '../graphql-schema';

/** `GET /api/schema.graphql`: the running API's GraphQL schema (the API page links it). */
@Controller('api')
export class SchemaController {
  constructor(private readonly modules: ModuleRef) {}

  @Get('schema.graphql')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  schema(): string {
    // The schema host lives in GraphQLModule's scope, which does not export it.
    return schemaFileText(this.modules.get(GraphQLSchemaHost, { strict: false }).schema);
  }
}
