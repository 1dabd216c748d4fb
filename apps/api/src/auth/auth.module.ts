import { Module } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { RateLimiter } from '../common/rate-limit';
import { API_CONFIG } from '../common/tokens';
import { IdentityResolver } from './identity.resolver';
import { LoginThrottle, SignInThrottles } from './login-throttle';
import { SessionResolver } from './session.resolver';

@Module({
  providers: [
    IdentityResolver,
    SessionResolver,
    {
      provide: SignInThrottles,
      useFactory: (config: ApiConfig) =>
        new SignInThrottles(
          new LoginThrottle(config.PODIUM_LOGIN_FREE_FAILURES, config.PODIUM_LOGIN_MAX_DELAY_SECONDS),
          new LoginThrottle(config.PODIUM_LOGIN_ADDRESS_FREE_FAILURES, config.PODIUM_LOGIN_MAX_DELAY_SECONDS),
          new RateLimiter(config.PODIUM_REGISTRATIONS_PER_HOUR, 3600_000),
        ),
      inject: [API_CONFIG],
    },
  ],
})
export class AuthModule {}
