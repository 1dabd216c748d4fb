import {
  parseRobustnessSuite,
  ROBUSTNESS_REPORT_QUEUE,
  robustnessReportJobV1,
  robustnessSuiteIdSchema,
  sendRobustnessJob,
  type JobSender,
} from './index';

describe('robustness suite ids', () => {
  it('parses built-in names and generated seeds', () => {
    expect(parseRobustnessSuite('builtin:wmt20-de')).toEqual({ kind: 'builtin', name: 'builtin:wmt20-de', id: 'builtin:wmt20-de' });
    expect(parseRobustnessSuite('generated:0')).toEqual({ kind: 'generated', seed: 0, id: 'generated:0' });
    expect(parseRobustnessSuite('generated:12345')).toMatchObject({ seed: 12345 });
  });

  it.each(['', 'wmt20-de', 'builtin:', 'builtin:WMT', 'generated:', 'generated:-1', 'generated:01', 'generated:1.5', 'generated:1234567890', '/etc/passwd'])(
    "rejects '%s'",
    (id) => {
      expect(robustnessSuiteIdSchema.safeParse(id).success).toBe(false);
    },
  );
});

describe('robustness job payload', () => {
  const reportId = '3f0c1a52-7d4e-4c1b-9a55-0d2f6f1e8b10';

  it('accepts version 1 with a report id and a positive attempt only', () => {
    expect(robustnessReportJobV1.safeParse({ v: 1, reportId, attempt: 2 }).success).toBe(true);
    expect(robustnessReportJobV1.safeParse({ v: 2, reportId, attempt: 2 }).success).toBe(false);
    expect(robustnessReportJobV1.safeParse({ v: 1, reportId: 'x', attempt: 2 }).success).toBe(false);
    expect(robustnessReportJobV1.safeParse({ v: 1, reportId, attempt: 0 }).success).toBe(false);
  });

  it('sends the payload to the robustness queue with a retry limit, inside the caller’s transaction', async () => {
    const sent: unknown[][] = [];
    const boss: JobSender = {
      send: async (...args) => {
        sent.push(args);
        return 'job-id';
      },
    };
    const db = { executeSql: async () => ({ rows: [] }) };
    await sendRobustnessJob(boss, reportId, 3, db);
    expect(sent).toEqual([[ROBUSTNESS_REPORT_QUEUE, { v: 1, reportId, attempt: 3 }, { db, retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 }]]);
    await expect(sendRobustnessJob(boss, 'not-a-uuid', 1)).rejects.toThrow();
  });
});
