import { CliError } from '../cli-error';
import { submitCommand } from './submit.command';
import { testInputCommand } from './test-input.command';

describe('podium submit and podium test-input flags', () => {
  it('names the missing flag before contacting any server', async () => {
    await expect(submitCommand.run(['--phase', 'p', '--token', 't', '--system', 's', 'f.txt'])).rejects.toThrow(new CliError('--url is required (the Podium server, e.g. http://localhost:3000)'));
    await expect(submitCommand.run(['--url', 'http://x', '--token', 't', '--system', 's', 'f.txt'])).rejects.toThrow(/--phase is required/);
    await expect(submitCommand.run(['--url', 'http://x', '--phase', 'p', '--token', 't', 'f.txt'])).rejects.toThrow(/--system is required/);
    await expect(submitCommand.run(['--url', 'http://x', '--phase', 'p', '--token', 't', '--system', 's'])).rejects.toThrow(/exactly one FILE/);
  });

  it('refuses a URL that is not http(s) and a file it cannot read', async () => {
    await expect(submitCommand.run(['--url', 'ftp://x', '--phase', 'p', '--token', 't', '--system', 's', 'f'])).rejects.toThrow(/must be http\(s\)/);
    await expect(submitCommand.run(['--url', 'http://x', '--phase', 'p', '--token', 't', '--system', 's', '/nonexistent/outputs.txt'])).rejects.toThrow(/cannot read \/nonexistent\/outputs.txt/);
  });

  it('accepts only tsv, jsonl and txt as test-input formats', async () => {
    await expect(testInputCommand.run(['--url', 'http://x', '--phase', 'p', '--format', 'csv'])).rejects.toThrow("--format must be one of tsv, jsonl, txt, got 'csv'");
  });
});
