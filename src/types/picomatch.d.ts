/**
 * The part of picomatch's API ralph uses (picomatch 4 ships no types):
 * `picomatch(glob, options)` compiles one glob or a list into a matcher of
 * '/'-separated paths; `returnState` adds the parsed state (`negated`).
 */
declare module "picomatch" {
  interface PicomatchOptions {
    /** Let `*` and `**` match names that start with a dot. */
    dot?: boolean;
    /** Match without regard to case. */
    nocase?: boolean;
  }
  interface Matcher {
    (path: string): boolean;
    state?: { negated?: boolean; negatedExtglob?: boolean };
  }
  interface ScanResult {
    base: string;
    glob: string;
    isGlob: boolean;
    negated: boolean;
  }
  interface Picomatch {
    (glob: string | readonly string[], options?: PicomatchOptions, returnState?: boolean): Matcher;
    scan(glob: string): ScanResult;
  }
  const picomatch: Picomatch;
  export default picomatch;
}
