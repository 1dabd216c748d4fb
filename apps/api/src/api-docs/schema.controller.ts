import { Controller, Get, Header } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { schemaFileText } from '../graphql-schema';

/** `GET /api/schema.graphql`: the running API's GraphQL schema (the API page links it). */
@Controller('api')
export class SchemaController {
  constructor(private readonly host: GraphQLSchemaHost) {}

  @Get('schema.graphql')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  schema(): string {
    return schemaFileText(this.host.schema);
  }
}
