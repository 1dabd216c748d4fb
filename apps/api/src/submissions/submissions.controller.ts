import { BadRequestException, Controller, HttpCode, Inject, Param, PayloadTooLargeException, Post, Req, Res } from '@nestjs/common';
import type { ApiConfig } from '@podium/config';
import { InvalidInputError, UnauthenticatedError, type AuthUser } from '@podium/domain';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { CurrentUser } from '../auth/auth.guard';
import { assertStorable } from '../common/storable-text';
import { API_CONFIG } from '../common/tokens';
import { continueIfExpected, lingerOnClose } from '../edge/refuse';
import { SubmissionsService } from './submissions.service';
import type { UploadFormat } from './upload-parser';

/** The text fields of the form; they must come before `file` (browsers' FormData and curl -F keep the order given). */
interface UploadForm {
  teamId?: string;
  team?: string;
  systemName?: string;
  description?: string;
  format?: string;
  isBaseline?: string;
}
const FORM_FIELDS = new Set<string>(['teamId', 'team', 'systemName', 'description', 'format', 'isBaseline']);

function formatOf(value: string | undefined): UploadFormat | undefined {
  if (value === undefined || value === '') return undefined;
  const f = value.toLowerCase();
  if (f === 'jsonl' || f === 'text') return f;
  throw new InvalidInputError(`format must be jsonl or text, got '${value}'`, { field: 'format' });
}

/**
 * Multipart uploads: `teamId` (or `team` by name), `systemName`, `description`, then `file`.
 * Who is asking is known from the headers (the upload gate refused anonymous, oversized and
 * excess uploads unread); here the phase is checked before the body is read, the team when its
 * field has arrived and before the file is read, and the file is read up to the limit only.
 */
@Controller('api/phases/:phaseId/submissions')
export class SubmissionsController {
  constructor(
    private readonly service: SubmissionsService,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Post()
  @HttpCode(201)
  async upload(
    @Param('phaseId') phaseId: string,
    @CurrentUser() user: AuthUser | null,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ submissionId: string; status: string }> {
    if (!user) throw new UnauthenticatedError();
    // A refusal from here on answers before the body is read: close rather than drain it.
    res.setHeader('Connection', 'close');
    lingerOnClose(req);
    await this.service.assertPhaseTakesUploads(user, phaseId);
    // Any refusal while reading stops the parse where it is; the error filter answers and the
    // connection closes (the rest of the body is never read).
    const { fields, file } = await this.readForm(req, res, async (f) => {
      await this.service.assertMayUploadFor(user, { phaseId, teamId: f.teamId || undefined, teamName: f.team || undefined, isBaseline: isBaseline(f) });
    });
    res.removeHeader('Connection');
    const submission = await this.service.submit(user, {
      phaseId,
      teamId: fields.teamId || undefined,
      teamName: fields.team || undefined,
      systemName: fields.systemName ?? '',
      description: fields.description,
      content: new Uint8Array(file.buffer, file.byteOffset, file.byteLength),
      format: formatOf(fields.format),
      isBaseline: isBaseline(fields),
    });
    return { submissionId: submission.id, status: submission.status };
  }

  /**
   * Streams the multipart body: text fields first, then `beforeFile` (the team checks) when the
   * file starts, then the file up to PODIUM_MAX_UPLOAD_BYTES. Past the limit the parse stops
   * there (413), and the connection is closed after the answer.
   */
  private readForm(req: Request, res: Response, beforeFile: (fields: UploadForm) => Promise<void>): Promise<{ fields: UploadForm; file: Buffer }> {
    const limit = this.config.PODIUM_MAX_UPLOAD_BYTES;
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, limits: { fileSize: limit, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
      } catch (e) {
        reject(new InvalidInputError(`the body must be multipart/form-data: ${e instanceof Error ? e.message : String(e)}`, { field: 'file' }));
        return;
      }
      const fields: UploadForm = {};
      let file: Buffer | null = null;
      let settled = false;
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        req.unpipe(parser);
        req.pause();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      parser.on('field', (name, value) => {
        if (!FORM_FIELDS.has(name)) return;
        // What the StorableTextPipe checks for other bodies: text PostgreSQL cannot store is a 400.
        try {
          assertStorable(value, name);
        } catch (e) {
          fail(e);
          return;
        }
        fields[name as keyof UploadForm] = value;
      });
      parser.on('file', (name, stream) => {
        // A body that ends inside the file makes busboy fail the file stream too; the parser's own
        // 'error' handler answers, so this one only keeps the process from treating it as unhandled.
        stream.on('error', () => undefined);
        if (name !== 'file' || settled) {
          stream.resume();
          return;
        }
        // The team is checked before one byte of the file is taken in.
        stream.pause();
        beforeFile(fields).then(
          () => {
            if (settled) return;
            const chunks: Buffer[] = [];
            stream.on('data', (c: Buffer) => chunks.push(c));
            stream.on('limit', () => fail(new PayloadTooLargeException(`the file is larger than ${limit} bytes, the most accepted; it was cut off there`)));
            stream.on('end', () => {
              if (!stream.truncated) file = Buffer.concat(chunks);
            });
            stream.resume();
          },
          (e: unknown) => fail(e),
        );
      });
      parser.on('filesLimit', () => fail(new InvalidInputError('send one file, in the field "file"', { field: 'file' })));
      parser.on('partsLimit', () => fail(new InvalidInputError('the form has too many parts', { field: 'file' })));
      parser.on('error', (e: unknown) => fail(new InvalidInputError(`the multipart body is malformed: ${e instanceof Error ? e.message : String(e)}`, { field: 'file' })));
      parser.on('close', () => {
        if (settled) return;
        settled = true;
        if (!file) reject(new InvalidInputError('the multipart field "file" is missing', { field: 'file' }));
        else resolve({ fields, file });
      });
      req.on('aborted', () => fail(new BadRequestException('the upload was aborted by the client')));
      continueIfExpected(req, res);
      req.pipe(parser);
    });
  }
}

function isBaseline(fields: UploadForm): boolean {
  return fields.isBaseline === 'true' || fields.isBaseline === '1';
}
