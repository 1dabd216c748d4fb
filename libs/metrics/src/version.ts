/**
 * Version field written into every signature instead of sacreBLEU's own version, so a
 * stored score pins the implementation that produced it.
 * Example: `bleu|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:podium-0.1.0`.
 */
export const PODIUM_METRICS_VERSION = 'podium-0.1.0';
