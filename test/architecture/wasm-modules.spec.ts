import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import createWabt from 'wabt';
import { RESAMPLE_WINS_WASM } from '../../libs/ranking/src/wasm/resample-wins-module';

// libs/ranking's WebAssembly kernel: the committed bytes are what the committed text assembles to
// (node scripts/build-wasm.mjs writes them; wabt is a development tool, so the check lives here).
describe('resample-wins.wat and its assembled module', () => {
  it('agree byte for byte', async () => {
    const wabt = await createWabt();
    const module = wabt.parseWat('resample-wins.wat', readFileSync(join(__dirname, '../../libs/ranking/src/wasm/resample-wins.wat'), 'utf8'), { simd: true });
    module.validate();
    const { buffer } = module.toBinary({ log: false, write_debug_names: false });
    module.destroy();
    expect(Buffer.from(RESAMPLE_WINS_WASM, 'base64').equals(Buffer.from(buffer))).toBe(true);
  });
});
