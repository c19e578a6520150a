// Dev mock: what every part of the fake backend shares.

import type { AppError, ErrorKind } from "./types";

/** URL switches, `?mock=empty,nomodel,…` (see README.md). */
export type MockFlag = "empty" | "nomodel" | "slow" | "fail" | "liberror" | "notice" | "weaksandbox" | "network";
export type MockFlags = ReadonlySet<MockFlag>;

const ALL: MockFlag[] = ["empty", "nomodel", "slow", "fail", "liberror", "notice", "weaksandbox", "network"];

export function parseMockFlags(search: string): Set<MockFlag> {
  const given = (new URLSearchParams(search).get("mock") ?? "").split(",");
  return new Set(ALL.filter((f) => given.includes(f)));
}

/** What the mock throws: the shell's error shape, so the page's error handling is exercised. */
export function appError(kind: ErrorKind, message: string): AppError {
  return { kind, message };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
