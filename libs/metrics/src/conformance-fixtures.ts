/**
 * Shared inputs of the plugins' reference vectors: the first three segments of WMT17 de-en
 * system C-3MA.4958 and its reference (data set `wmt17-de-en` of libs/datasets, MENLI's copy of
 * WMT17 at commit 911238d), whose sacreBLEU 2.6.0 sentence scores are in
 * test/golden/sacrebleu-wmt17-de-en.json (`sentence_first100[0..2]`).
 */
export const WMT17_C3MA_HYPS: readonly string[] = [
  '28-year-old chef found dead in San Francisco Mall',
  'A 28-year-old chef, who recently moved to San Francisco, was found dead in the stairwell of a local shopping centre.',
  'The victim\'s brother said he could not imagine anyone who would want to hurt him, "Endess went uphill on him."',
];

/** The reference lines of {@link WMT17_C3MA_HYPS} (newstest2017-deen-ref.en, lines 1–3). */
export const WMT17_DEEN_REFS: readonly string[] = [
  '28-Year-Old Chef Found Dead at San Francisco Mall',
  'A 28-year-old chef who had recently moved to San Francisco was found dead in the stairwell of a local mall this week.',
  'But the victim\'s brother says he can\'t think of anyone who would want to hurt him, saying, "Things were finally going well for him."',
];
