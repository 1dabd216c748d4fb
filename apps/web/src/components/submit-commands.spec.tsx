import { submitCommands } from './submit-commands';

describe('submitCommands', () => {
  const c = submitCommands({ origin: 'http://localhost:3000', phaseId: 'p-1', teamId: 't-1', systemName: "ada's system" });

  it('fills the phase id, the server and a shell-quoted system name into the podium command, run with node from the file the server offers', () => {
    expect(c.download).toBe('curl -fsSLO http://localhost:3000/api/cli/podium.cjs');
    expect(c.submit).toBe("node podium.cjs submit --url http://localhost:3000 --phase p-1 --token $PODIUM_TOKEN --system 'ada'\\''s system' outputs.txt");
    expect(c.testInput).toBe('node podium.cjs test-input --url http://localhost:3000 --phase p-1 --format tsv --out test-input.tsv');
  });

  it('gives the equivalent multipart upload with curl', () => {
    expect(c.curl).toBe(
      "curl -H \"Authorization: Bearer $PODIUM_TOKEN\" -F teamId=t-1 -F systemName='ada'\\''s system' -F file=@outputs.txt http://localhost:3000/api/phases/p-1/submissions",
    );
  });
});
