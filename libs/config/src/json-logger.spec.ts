import { JsonLogger } from './json-logger';

describe('JsonLogger levels', () => {
  const capture = (debug: boolean) => {
    const lines: Record<string, unknown>[] = [];
    return { lines, logger: new JsonLogger('api', (line) => void lines.push(JSON.parse(line) as Record<string, unknown>), debug) };
  };

  it("writes Nest's route mapping (RoutesResolver, RouterExplorer) at debug, which is off by default", () => {
    const { lines, logger } = capture(false);
    logger.log('Mapped {/api/health, GET} route', 'RouterExplorer');
    logger.log('HealthController {/api/health}:', 'RoutesResolver');
    logger.log('Nest application successfully started', 'NestApplication');
    expect(lines).toEqual([expect.objectContaining({ level: 'info', context: 'NestApplication', msg: 'Nest application successfully started' })]);
  });

  it('writes route mapping and other debug lines when debug logs are on (PODIUM_LOG_LEVEL=debug)', () => {
    const { lines, logger } = capture(true);
    logger.log('Mapped {/api/health, GET} route', 'RouterExplorer');
    logger.debug({ msg: 'detail', event: 'x' }, 'Scoring');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'debug', context: 'RouterExplorer', msg: 'Mapped {/api/health, GET} route' }),
      expect.objectContaining({ level: 'debug', context: 'Scoring', msg: 'detail', event: 'x' }),
    ]);
  });
});
