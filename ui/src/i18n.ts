// The page's language: which catalogue t() reads, chosen once at start-up from
// the user's preference or the OS locale. Text that comes from the backend
// (answers, document names, error messages) is shown as it arrives.

import { en } from "./locales/en";
import { zhCN } from "./locales/zh-CN";

export type Locale = "en" | "zh-CN";
export type LocalePreference = "auto" | Locale;
type MessageKey = keyof typeof en;

/** Each language's own name: a person who cannot read the current one still finds theirs. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, "zh-CN": zhCN };
const PREFERENCE_KEY = "pagewise.locale";

// The {name} placeholders of an English message, so a call that misses one does not compile.
type Vars<S extends string> = S extends `${string}{${infer V}}${infer Rest}` ? V | Vars<Rest> : never;
type Params<K extends MessageKey> = Record<Vars<(typeof en)[K]>, string | number>;
type Args<K extends MessageKey> = [Vars<(typeof en)[K]>] extends [never] ? [] : [params: Params<K>];
/** Keys that have an n = 1 form ("….one"). */
type CountKey = { [K in MessageKey]: `${K}.one` extends MessageKey ? K : never }[MessageKey];

let current: Locale = "en";

export function t<K extends MessageKey>(key: K, ...args: Args<K>): string {
  return fill(key, args[0]);
}

/** A message about n things; `n` is filled in with the locale's digit grouping. */
export function tn<K extends CountKey>(key: K, n: number, params?: Omit<Params<K>, "n">): string {
  return fill(n === 1 ? (`${key}.one` as MessageKey) : key, { ...params, n: formatNumber(n) });
}

function fill(key: MessageKey, params?: Record<string, string | number>): string {
  const message = CATALOGUES[current][key];
  if (!params) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function formatNumber(n: number): string {
  return n.toLocaleString(current === "en" ? "en-US" : current);
}

/** Date and time of unix seconds, in the page's language and the computer's time zone. */
export function formatDateTime(unixSecs: number): string {
  return new Date(unixSecs * 1000).toLocaleString(current === "en" ? "en-US" : current, { dateStyle: "medium", timeStyle: "short" });
}

function parseLocale(value: string | null | undefined): Locale | null {
  return value === "en" || value === "zh-CN" ? value : null;
}

/** Any Chinese (zh, zh-CN, zh-TW, zh-Hant-HK…) gets Simplified Chinese, the only one there is;
 *  everything else English. Only the first, preferred, language counts. */
export function resolveLocale(preference: LocalePreference, languages: readonly string[]): Locale {
  if (preference !== "auto") return preference;
  return /^zh(?:[-_]|$)/i.test(languages[0] ?? "") ? "zh-CN" : "en";
}

export function storedPreference(): LocalePreference {
  try {
    return parseLocale(localStorage.getItem(PREFERENCE_KEY)) ?? "auto";
  } catch {
    return "auto"; // storage unavailable
  }
}

export function storePreference(preference: LocalePreference): void {
  try {
    localStorage.setItem(PREFERENCE_KEY, preference);
  } catch {
    /* storage unavailable: the choice lasts until the page reloads */
  }
}

export function setLocale(l: Locale): void {
  current = l;
  if (typeof document !== "undefined") document.documentElement.lang = l;
}

/** Picks the language before anything is drawn. `?lang=en|zh-CN` forces one for this page
 *  load (screenshots, development) without touching the stored preference. */
export function initLocale(): Locale {
  const forced = parseLocale(new URLSearchParams(location.search).get("lang"));
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  setLocale(forced ?? resolveLocale(storedPreference(), languages));
  return current;
}
