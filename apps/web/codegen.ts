import type { CodegenConfig } from '@graphql-codegen/cli';

// Types for the web app's operations, from the API's committed schema (`npm run codegen:web`).
const config: CodegenConfig = {
  schema: 'apps/api/schema.graphql',
  documents: 'apps/web/src/graphql/*.graphql',
  generates: {
    'apps/web/src/graphql/generated.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        documentMode: 'documentNode',
        enumsAsTypes: true,
        useTypeImports: true,
        avoidOptionals: { field: true, inputValue: false, object: true },
        scalars: { DateTime: 'string', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
};
export default config;
