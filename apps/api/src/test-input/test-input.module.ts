import { Module } from '@nestjs/common';
import { TestInputController } from './test-input.controller';
import { TestInputService } from './test-input.service';

@Module({ controllers: [TestInputController], providers: [TestInputService], exports: [TestInputService] })
export class TestInputModule {}
