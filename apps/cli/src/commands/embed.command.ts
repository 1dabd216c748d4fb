import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { CliCommand } from '../command';
import { CliError } from '../cli-error';
import { parseFlagsAndPositionals } from '../flags';
import { readLines } from '../io';

const USAGE = `usage: podium embed --model DIR --layer L [--layer L2…] [--out FILE] FILE

Embeds each line of FILE with a text encoder and writes one JSON object per line (JSONL) to
--out or stdout: {"text","tokens","ids","special","offsets","layers","vectors"} where
vectors[l][t] is token t's hidden state at layers[l] (0 = embedding output), as float32 values.
Special tokens ([CLS], [SEP], <s>, </s>) are flagged and have offsets [0, 0]. Tokenisation is
the model's own tokenizer.json, as bert_score encodes a sentence (stripped, special tokens
added, truncated to the model's length). Any reference implementation can recompute an
embedding metric from this output.

  --model DIR       encoder folder (model.onnx with outputs hidden_states.0…N, tokenizer.json,
                    config.json), checked against models/manifest.json; a bare name is looked up
                    in models/ (PODIUM_MODELS_DIR)
  --layer L         hidden state to write (repeat for several; default the last layer)
  --out FILE        write here instead of stdout
  --batch-size N    texts per onnxruntime run (default 32; vectors do not depend on it)
  --provider P      cpu | cuda (cuda falls back to cpu)`;

/** `podium embed`: token vectors of a text file, JSONL. */
export const embedCommand: CliCommand = {
  name: 'embed',
  summary: 'write the tokens and hidden-state vectors of each line of a file (JSONL)',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const { values, positionals } = parseFlagsAndPositionals(argv, {
      model: { type: 'string' },
      layer: { type: 'string', multiple: true },
      out: { type: 'string' },
      'batch-size': { type: 'string' },
      provider: { type: 'string' },
    });
    const [file, ...more] = positionals;
    if (file === undefined || more.length > 0) throw new CliError('give exactly one FILE to embed');
    if (values.model === undefined) throw new CliError('--model DIR is required');
    const layers = (values.layer ?? []).map((l) => {
      const n = Number(l);
      if (!Number.isInteger(n) || n < 0) throw new CliError(`--layer must be a non-negative integer; got '${l}'`);
      return n;
    });
    const batchSize = values['batch-size'] === undefined ? 32 : Number(values['batch-size']);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new CliError(`--batch-size must be a positive integer; got '${values['batch-size'] ?? ''}'`);
    const provider = values.provider ?? 'cpu';
    if (provider !== 'cpu' && provider !== 'cuda') throw new CliError(`--provider must be cpu or cuda; got '${provider}'`);
    const lines = readLines(file, 'input file');
    // Lazily: the encoder service pulls in onnxruntime.
    const { encoderAvailability, loadEncoder, embeddedTextToJson, modelDirOf } = await import('./score-embedding');
    const dir = modelDirOf(values.model);
    const availability = encoderAvailability(dir);
    if (!availability.available) throw new CliError(availability.reason ?? 'no encoder');
    const encoder = await loadEncoder(dir, { provider, manifestPath: join(dir, '..', 'manifest.json'), log: (m) => process.stderr.write(`podium embed: ${m}\n`) });
    const out: NodeJS.WritableStream = values.out === undefined ? process.stdout : createWriteStream(values.out);
    try {
      const wanted = layers.length > 0 ? layers : [encoder.identity.numLayers];
      // Chunks keep memory flat on long files; each line is written in input order.
      for (let lo = 0; lo < lines.length; lo += 1024) {
        const embedded = await encoder.embed(lines.slice(lo, lo + 1024), wanted, { batchSize }).catch((err: unknown) => {
          throw new CliError((err as Error).message);
        });
        for (const t of embedded) {
          if (!out.write(JSON.stringify(embeddedTextToJson(t)) + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
        }
      }
    } finally {
      await encoder.close();
      if (out !== process.stdout) await new Promise<void>((r) => out.end(() => r()));
    }
    return undefined;
  },
};
