import { Body, Controller, HttpCode, Param, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { InvalidInputError, UnauthenticatedError, type AuthUser } from '@podium/db';
import { CurrentUser } from '../auth/auth.guard';
import { SubmissionsService } from './submissions.service';
import type { UploadFormat } from './upload-parser';

interface UploadForm {
  teamId?: string;
  team?: string;
  systemName?: string;
  description?: string;
  format?: string;
  isBaseline?: string;
}

function formatOf(value: string | undefined): UploadFormat | undefined {
  if (value === undefined || value === '') return undefined;
  const f = value.toLowerCase();
  if (f === 'jsonl' || f === 'text') return f;
  throw new InvalidInputError(`format must be jsonl or text, got '${value}'`, { field: 'format' });
}

/** Multipart uploads: `file` plus `teamId` (or `team` by name), `systemName`, `description`. */
@Controller('api/phases/:phaseId/submissions')
export class SubmissionsController {
  constructor(private readonly service: SubmissionsService) {}

  @Post()
  @HttpCode(201)
  @UseInterceptors(FileInterceptor('file'))
  async upload(
    @Param('phaseId') phaseId: string,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() form: UploadForm,
    @CurrentUser() user: AuthUser | null,
  ): Promise<{ submissionId: string; status: string }> {
    if (!user) throw new UnauthenticatedError();
    if (!file) throw new InvalidInputError('the multipart field "file" is missing', { field: 'file' });
    const submission = await this.service.submit(user, {
      phaseId,
      teamId: form.teamId || undefined,
      teamName: form.team || undefined,
      systemName: form.systemName ?? '',
      description: form.description,
      content: new Uint8Array(file.buffer.buffer, file.buffer.byteOffset, file.buffer.byteLength),
      format: formatOf(form.format),
      isBaseline: form.isBaseline === 'true' || form.isBaseline === '1',
    });
    return { submissionId: submission.id, status: submission.status };
  }
}
