/**
 * Paths from agent payloads. Claude Code sends absolute paths
 * (`tool_input.file_path`, `cwd`, `transcript_path`); on Windows they use
 * `\` and a drive letter. Everything is normalised to `/` first (issue 4,
 * "Protocol rules"), then made relative to the repository root by text, so
 * `C:\repo\test\a.test.ts` under `C:/repo` is `test/a.test.ts` on any OS.
 */

/** `\` -> `/`, duplicate slashes collapsed (a leading `//` UNC prefix kept). */
export function normalizeSlashes(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const unc = slashed.startsWith("//") ? "/" : "";
  return unc + slashed.replace(/\/{2,}/g, "/");
}

/** True for `/x`, `C:/x` and `//server/x` (after {@link normalizeSlashes}). */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:\//.test(path);
}

/** Resolves `.` and `..` segments of a `/`-separated path; null when `..` climbs above its start. */
function collapseDots(path: string): string | null {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return null;
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return out.join("/");
}

/**
 * The repository-relative, `/`-separated form of a path from a payload, or
 * null when it lies outside the work tree. Relative paths are taken from
 * `cwd`. Drive letters compare case-insensitively.
 */
export function toRepoPath(workTree: string, rawPath: string, cwd: string = workTree): string | null {
  const root = normalizeSlashes(workTree).replace(/\/$/, "");
  let path = normalizeSlashes(rawPath);
  if (!isAbsolutePath(path)) path = `${normalizeSlashes(cwd).replace(/\/$/, "")}/${path}`;
  const fold = (p: string): string => (/^[A-Za-z]:\//.test(p) ? p[0]!.toLowerCase() + p.slice(1) : p);
  const rootKey = fold(root);
  const pathKey = fold(path);
  if (pathKey !== rootKey && !pathKey.startsWith(`${rootKey}/`)) return null;
  const relative = collapseDots(path.slice(root.length));
  return relative === null || relative === "" ? null : relative;
}
