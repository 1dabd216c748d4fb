import { ApiError, toErrorDetails } from './graphql-client';

export interface UploadForm {
  phaseId: string;
  teamId: string;
  systemName: string;
  description: string;
  file: Blob;
  fileName: string;
}

/** Uploads system outputs as multipart to the REST endpoint; the API's refusal keeps its line pointer. */
export async function uploadSubmission(form: UploadForm): Promise<{ submissionId: string; status: string }> {
  const body = new FormData();
  body.set('teamId', form.teamId);
  body.set('systemName', form.systemName);
  body.set('description', form.description);
  body.set('file', form.file, form.fileName);
  let res: Response;
  try {
    res = await fetch(`/api/phases/${encodeURIComponent(form.phaseId)}/submissions`, { method: 'POST', credentials: 'same-origin', headers: { 'x-podium-request': 'web' }, body });
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', []);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const details = toErrorDetails(json);
    throw new ApiError(details[0]?.message ?? `upload failed (${res.status})`, details, res.status);
  }
  return json as { submissionId: string; status: string };
}

/** What the api answers to a task bundle import (`POST /api/tasks/import`). */
export interface BundleImportResult {
  taskId: string;
  slug: string;
  phases: { id: string; name: string }[];
  submissions: number;
  teamsCreated: string[];
}

/** Sends a task bundle (its text, read from the chosen file) to be imported, under `slug` when given. */
export async function importTaskBundle(text: string, slug: string): Promise<BundleImportResult> {
  let res: Response;
  try {
    res = await fetch(`/api/tasks/import${slug ? `?slug=${encodeURIComponent(slug)}` : ''}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-podium-request': 'web' },
      body: text,
    });
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', []);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const details = toErrorDetails(json);
    throw new ApiError(details[0]?.message ?? `import failed (${res.status})`, details, res.status);
  }
  return json as BundleImportResult;
}
