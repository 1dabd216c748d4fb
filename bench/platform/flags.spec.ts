import { FlagError, numberFlag, parsePlatformFlags, PLATFORM_DEFAULTS } from './flags';

describe('bench:platform flags', () => {
  it('defaults to 100 systems × 10,000 instances, rounds of 15 s at 500 req/s and with 50 clients, and 4× N', () => {
    expect(parsePlatformFlags([])).toEqual({ ...PLATFORM_DEFAULTS, systems: 100, instances: 10_000, clients: 50, rate: 500, duration: 15, scale: 4, help: false });
  });

  it('reads every flag, with = or a separate value', () => {
    const f = parsePlatformFlags(['--systems', '6', '--instances=500', '--workers', '3', '--duration', '2.5', '--scale', '2', '--clients', '8', '--rate', '250', '--seed', '7']);
    expect(f).toEqual({ systems: 6, instances: 500, workers: 3, duration: 2.5, scale: 2, clients: 8, rate: 250, seed: 7, help: false });
  });

  it('accepts 10_000 with digit separators', () => {
    expect(parsePlatformFlags(['--instances', '10_000']).instances).toBe(10_000);
  });

  it.each([
    [['--systems', 'abc'], "--systems must be an integer from 2 to 1,000, got 'abc'"],
    [['--systems', '1'], "--systems must be an integer from 2 to 1,000, got '1'"],
    [['--instances', '2.5'], "--instances must be an integer from 10 to 1,000,000, got '2.5'"],
    [['--instances', ''], "--instances must be an integer from 10 to 1,000,000, got ''"],
    [['--duration', '0'], "--duration must be a number from 1 to 600, got '0'"],
    [['--scale', '0.5'], "--scale must be a number from 1 to 100, got '0.5'"],
    [['--workers', '-1'], "--workers must be an integer from 1 to 16, got '-1'"],
    [['--rate', '0'], "--rate must be a number from 1 to 100,000, got '0'"],
  ])('rejects %j with a message naming the flag, its range and the value', (argv, message) => {
    expect(() => parsePlatformFlags(argv)).toThrow(new FlagError(message));
  });

  it('rejects unknown flags, positionals and a flag without its value', () => {
    expect(() => parsePlatformFlags(['--system', '5'])).toThrow(FlagError);
    expect(() => parsePlatformFlags(['5'])).toThrow(FlagError);
    expect(() => parsePlatformFlags(['--systems'])).toThrow(/--systems/);
  });

  it('rejects a second size above 10^7 instances', () => {
    expect(() => parsePlatformFlags(['--instances', '1000000', '--scale', '20'])).toThrow(/≤ 10,000,000/);
  });
});

describe('numberFlag (shared by the benchmarks)', () => {
  it('gives the fallback when absent and the checked value when given', () => {
    expect(numberFlag('rounds', undefined, 2, 1, 20, true)).toBe(2);
    expect(numberFlag('rounds', ' 1_0 ', 2, 1, 20, true)).toBe(10);
    expect(numberFlag('rate', '2.5', 500, 1, 100_000, false)).toBe(2.5);
  });

  it('names the flag, its range and the value when it is refused', () => {
    expect(() => numberFlag('rounds', '21', 2, 1, 20, true)).toThrow(new FlagError("--rounds must be an integer from 1 to 20, got '21'"));
    expect(() => numberFlag('rounds', '1.5', 2, 1, 20, true)).toThrow(FlagError);
  });
});
