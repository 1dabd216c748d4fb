import { Module } from '@nestjs/common';
import { IdentityResolver } from './identity.resolver';
import { SessionResolver } from './session.resolver';

@Module({ providers: [IdentityResolver, SessionResolver] })
export class AuthModule {}
