/** One segment-level human judgement (WMT direct assessment, z-scored). */
export interface DaJudgement {
  /** Language pair, e.g. `de-en`. */
  lp: string;
  /** Test set, e.g. `newstest2017`. */
  data: string;
  /**
   * Systems judged; WMT joins names with '+' when their outputs for the segment were
   * identical, and the judgement then holds for each of them.
   */
  systems: string[];
  /** 1-based line number of the segment in the test set. */
  sid: number;
  human: number;
}

/**
 * Parses WMT segment-level DA scores: whitespace-separated columns `LP DATA SYSTEM SID
 * HUMAN` after a header row (the format of `DAseg-wmt-newstest2017`, as in
 * WMT17's DA-seglevel.csv in data set wmt17-de-en). Pure; the caller reads the file.
 * @throws Error naming the line for a malformed row.
 */
export function parseDaSegLevel(text: string): DaJudgement[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').trim().split(/\s+/);
  const expected = ['LP', 'DATA', 'SYSTEM', 'SID', 'HUMAN'];
  if (header.join(' ') !== expected.join(' ')) {
    throw new Error(`line 1: expected header '${expected.join(' ')}', found '${header.join(' ')}'`);
  }
  const out: DaJudgement[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (i === 0 || line === '') continue;
    const cols = line.split(/\s+/);
    const [lp, data, systems, sidText, humanText] = cols;
    if (cols.length !== 5 || lp === undefined || data === undefined || systems === undefined || sidText === undefined || humanText === undefined) {
      throw new Error(`line ${i + 1}: expected 5 columns, found ${cols.length}`);
    }
    const sid = Number(sidText);
    const human = Number(humanText);
    if (!Number.isInteger(sid) || sid < 1) throw new Error(`line ${i + 1}: SID must be a positive integer, found '${sidText}'`);
    if (!Number.isFinite(human)) throw new Error(`line ${i + 1}: HUMAN must be a number, found '${humanText}'`);
    out.push({ lp, data, systems: systems.split('+'), sid, human });
  }
  return out;
}
