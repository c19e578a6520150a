// The one error type the UI reacts to. The shell rejects every command with an
// AppError `{ kind, message }`; the page decides by `kind` only, because the
// message is prose for people (and may change or be translated).

import type { AppError, ErrorKind } from "./types";

// A Record so the compiler fails when the generated ErrorKind gains or loses a kind.
const KINDS: Record<ErrorKind, true> = {
  stopped: true,
  not_indexed: true,
  library_unavailable: true,
  model_missing: true,
  not_found: true,
  invalid_input: true,
  declined: true,
  failed: true,
};

export class CommandError extends Error {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string) {
    super(message);
    this.name = "CommandError";
    this.kind = kind;
  }
}

export function isAppError(e: unknown): e is AppError {
  if (!e || typeof e !== "object") return false;
  const { kind, message } = e as Record<string, unknown>;
  return typeof kind === "string" && Object.prototype.hasOwnProperty.call(KINDS, kind) && typeof message === "string";
}

/** Any rejection as a CommandError; what is not an AppError (Tauri's own string
 *  errors, exceptions thrown in the page) is kind "failed". */
export function toCommandError(e: unknown): CommandError {
  if (e instanceof CommandError) return e;
  if (isAppError(e)) return new CommandError(e.kind, e.message);
  return new CommandError("failed", errorText(e));
}

export function errorKind(e: unknown): ErrorKind {
  return toCommandError(e).kind;
}

/** True for an answer stopped before anything was written (nothing was stored). */
export function isStopped(e: unknown): boolean {
  return errorKind(e) === "stopped";
}

/** Text to show a person; never branch on it. */
export function errorText(e: unknown): string {
  if (typeof e === "string") return e;
  if (e instanceof Error) return e.message;
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}
