import { useState, type MouseEvent, type ReactNode } from 'react';
import { useAuth } from '../lib/auth';

/** The file name from a Content-Disposition header, if any. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  return m?.[1] ? decodeURIComponent(m[1]) : fallback;
}

/**
 * A download link. Signed in, it fetches with the session cookie (a team may download its own
 * scores before the leaderboard is public) so that a refusal shows here, and saves the response.
 */
export function DownloadLink({ href, fileName, children, testId }: { href: string; fileName: string; children: ReactNode; testId?: string }) {
  const { signedIn } = useAuth();
  const [error, setError] = useState<string | null>(null);
  async function click(e: MouseEvent<HTMLAnchorElement>) {
    if (!signedIn) return;
    e.preventDefault();
    setError(null);
    try {
      const res = await fetch(href, { credentials: 'same-origin' });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        throw new Error(body?.error ?? `download failed (${res.status})`);
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameFrom(res.headers.get('content-disposition'), fileName);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <>
      <a className="button-link" href={href} download={fileName} onClick={(e) => void click(e)} data-testid={testId}>
        {children}
      </a>
      {error && (
        <span className="error-text small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
