import { ApiError, UNREACHABLE } from "./api";

/**
 * GETs `path` with the bearer token and saves the body as `filename` through a blob URL (a
 * plain link could not carry the token). A failure throws the API's error message.
 */
export async function downloadFile(path: string, token: string | undefined, filename: string) {
  const res = await fetch(path, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    cache: "no-store",
  }).catch(() => {
    throw new ApiError(UNREACHABLE, 0, null);
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(body?.error ?? `Download failed (${res.status})`, res.status, body);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
