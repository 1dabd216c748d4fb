export { NLI_DIRECTIONS, NLI_FORMULAS, NLI_METRIC_DEFINITION, NLI_PLUGIN, nliOptionsSchema } from './nli.plugin';
