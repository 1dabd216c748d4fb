// The alias and cost limits against the real schema (apps/api/schema.graphql) and every document
// the web app sends (apps/web/src/graphql/*.graphql): the web's own queries must pass at the
// defaults, the 252-alias leaderboard probe of issue #21 must not.
import { loadApiConfig } from '@podium/config';
import { buildSchema, parse, validate } from 'graphql';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { graphqlArmorRules } from './graphql-limits.plugin';

const root = path.resolve(__dirname, '../../../..');
const schema = buildSchema(readFileSync(path.join(root, 'apps/api/schema.graphql'), 'utf8'));
const defaults = loadApiConfig({ DATABASE_URL: 'postgresql://unused' });
const rules = graphqlArmorRules({ maxAliases: defaults.PODIUM_GRAPHQL_MAX_ALIASES, maxCost: defaults.PODIUM_GRAPHQL_MAX_COST });

function errorsOf(source: string): string[] {
  return validate(schema, parse(source), rules).map((e) => e.message);
}

describe('graphql-armor limits', () => {
  const webDir = path.join(root, 'apps/web/src/graphql');
  it.each(readdirSync(webDir).filter((f) => f.endsWith('.graphql')))('accepts every operation of the web app in %s at the defaults', (file) => {
    const source = readFileSync(path.join(webDir, file), 'utf8');
    expect(errorsOf(source)).toEqual([]);
  });

  it('refuses one query with 252 aliases of leaderboard (the probe of issue #21)', () => {
    const aliases = Array.from({ length: 252 }, (_, i) => `a${i}: leaderboard(phaseId: "p", metric: "bleu") { alpha }`).join('\n');
    expect(errorsOf(`{ ${aliases} }`)).toEqual([expect.stringMatching(/Aliases limit of 15 exceeded, found 252/)]);
  });

  it('counts aliases inside fragments and accepts up to the limit', () => {
    const within = Array.from({ length: 15 }, (_, i) => `t${i}: tasks { slug }`).join(' ');
    expect(errorsOf(`{ ${within} }`)).toEqual([]);
    expect(errorsOf(`{ ...F } fragment F on Query { ${within} x: tasks { slug } }`)).toEqual([expect.stringMatching(/Aliases limit of 15 exceeded, found 16/)]);
  });

  it('leaves room for what the depth (12) and field (2,000) limits allow', () => {
    // 12 levels: tasks → phases → task → … (the depth limit's default); cost 428.5 by the model above.
    expect(errorsOf(`{ tasks { phases { task { phases { task { phases { task { phases { task { phases { task { slug } } } } } } } } } } } }`)).toEqual([]);
    // 2,000 fields: tasks plus 1,999 scalar selections, cost 2 + 1.5 × 1,999 = 3,000.5.
    expect(errorsOf(`{ tasks { ${'slug '.repeat(1999)} } }`)).toEqual([]);
  });

  it('refuses a query over the cost limit', () => {
    const tight = graphqlArmorRules({ maxAliases: 15, maxCost: 10 });
    const messages = validate(schema, parse('{ tasks { slug title phases { id name } } }'), tight).map((e) => e.message);
    expect(messages).toEqual([expect.stringMatching(/Cost limit of 10 exceeded/)]);
  });
});
