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
import { addAbortSignal } from 'node:stream';

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
    const phase = await this.service.assertPhaseTakesUploads(user, phaseId);
    // Any refusal while reading stops the parse where it is; the error filter answers and the
    // connection closes (the rest of the body is never read).
    const submission = await this.readForm(req, res, async (f, file) =>
      // The team checks (and the rest of submit's) run before the first byte of the file is read;
      // then the file streams through the parser into the database (ADR 0028), and nothing is
      // stored unless all of it arrived and passed.
      this.service.submitStream(
        user,
        {
          phaseId,
          teamId: f.teamId || undefined,
          teamName: f.team || undefined,
          systemName: f.systemName ?? '',
          description: f.description,
          format: formatOf(f.format),
          isBaseline: isBaseline(f),
        },
        file,
        phase,
      ),
    );
    res.removeHeader('Connection');
    return { submissionId: submission.id, status: submission.status };
  }

  /**
   * Streams the multipart body: text fields first, then, when the file starts, `onFile` with the
   * fields and the file's bytes as they arrive, up to PODIUM_MAX_UPLOAD_BYTES. Past the limit,
   * on a malformed or aborted body, the file's stream fails (so `onFile` stores nothing) and the
   * parse stops there (413 or 400); the connection is closed after the answer.
   */
  private readForm<T>(req: Request, res: Response, onFile: (fields: UploadForm, file: AsyncIterable<Uint8Array>) => Promise<T>): Promise<T> {
    const limit = this.config.PODIUM_MAX_UPLOAD_BYTES;
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        // The file is read with back-pressure (the parser and the spool take it as it comes): a
        // 1 MiB buffer between busboy and the reader, not 16 KiB, spares a pause and resume per 16 KiB.
        parser = busboy({ headers: req.headers, highWaterMark: 1 << 20, fileHwm: 1 << 20, limits: { fileSize: limit, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
      } catch (e) {
        reject(new InvalidInputError(`the body must be multipart/form-data: ${e instanceof Error ? e.message : String(e)}`, { field: 'file' }));
        return;
      }
      const fields: UploadForm = {};
      let result: { value: T } | null = null;
      let fileSeen = false;
      let parsed = false;
      let settled = false;
      // Fails the file's stream: whoever reads it stops with this error.
      const stopFile = new AbortController();
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        stopFile.abort(e);
        req.unpipe(parser);
        req.pause();
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      const finish = () => {
        if (settled || !parsed) return;
        if (!fileSeen) {
          settled = true;
          reject(new InvalidInputError('the multipart field "file" is missing', { field: 'file' }));
        } else if (result) {
          settled = true;
          resolve(result.value);
        }
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
        if (name !== 'file' || settled || fileSeen) {
          stream.resume();
          return;
        }
        fileSeen = true;
        // Not one byte of the file is taken in before onFile's checks pass and it starts reading.
        stream.pause();
        stream.on('limit', () => fail(new PayloadTooLargeException(`the file is larger than ${limit} bytes, the most accepted; it was cut off there`)));
        onFile({ ...fields }, fileChunks(stream, stopFile.signal)).then(
          (value) => {
            result = { value };
            finish();
          },
          (e: unknown) => fail(e),
        );
      });
      parser.on('filesLimit', () => fail(new InvalidInputError('send one file, in the field "file"', { field: 'file' })));
      parser.on('partsLimit', () => fail(new InvalidInputError('the form has too many parts', { field: 'file' })));
      parser.on('error', (e: unknown) => fail(new InvalidInputError(`the multipart body is malformed: ${e instanceof Error ? e.message : String(e)}`, { field: 'file' })));
      parser.on('close', () => {
        parsed = true;
        finish();
      });
      req.on('aborted', () => fail(new BadRequestException('the upload was aborted by the client')));
      req.on('close', () => {
        // The client went away before the body ended ('aborted' is not emitted on every Node version).
        if (!req.complete) fail(new BadRequestException('the upload was aborted by the client'));
      });
      continueIfExpected(req, res);
      req.pipe(parser);
    });
  }
}

/**
 * The bytes of a busboy file stream as they arrive; fails with the signal's reason once it is
 * aborted (413, a malformed or aborted body), and when busboy cut the file at the size limit.
 */
async function* fileChunks(stream: NodeJS.ReadableStream & { truncated?: boolean }, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const readable = stream as import('node:stream').Readable;
  addAbortSignal(signal, readable);
  try {
    for await (const chunk of readable) {
      if (signal.aborted) break;
      yield chunk as Buffer;
    }
  } catch (e) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : e;
    throw e;
  }
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new BadRequestException('the upload was stopped');
  if (stream.truncated) throw new PayloadTooLargeException('the file was cut off at the size limit');
}

function isBaseline(fields: UploadForm): boolean {
  return fields.isBaseline === 'true' || fields.isBaseline === '1';
}
