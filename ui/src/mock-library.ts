// Dev mock: the sample library (documents and folders) and its indexing progress,
// advanced by tick() so the folder rows move like the real ones.

import type { DocumentInfo, FolderStatus, LibraryStatus, PageKind } from "./types";
import type { MockFlags } from "./mock-common";

export const HOME = "/home/ada/Documents";
const RESEARCH = `${HOME}/Research`;
const MANUALS = `${HOME}/Manuals`;

export interface MockDoc extends DocumentInfo {
  kind: PageKind;
  folder: string;
  /** the file changed on disk after it was indexed */
  changed?: boolean;
}

export const DOCS: MockDoc[] = [
  { doc_id: 1, path: `${RESEARCH}/heat-pump-field-study-2023.pdf`, title: "Heat Pump Field Study 2023 — Final Report", mtime_ns: 1_700_000_000e9, page_count: 48, kind: "pdf", folder: RESEARCH },
  { doc_id: 2, path: `${RESEARCH}/insulation-guidelines.pdf`, title: "Insulation Guidelines for Older Buildings", mtime_ns: 1_690_000_000e9, page_count: 22, kind: "pdf", folder: RESEARCH, changed: true },
  { doc_id: 3, path: `${RESEARCH}/notes/meeting-2024-03-12.md`, title: "Meeting notes — Müller renovation", mtime_ns: 1_710_000_000e9, page_count: 2, kind: "text", folder: RESEARCH },
  { doc_id: 4, path: `${MANUALS}/arotherm-plus-installation.pdf`, title: "aroTHERM plus Installation and Maintenance Manual", mtime_ns: 1_650_000_000e9, page_count: 96, kind: "pdf", folder: MANUALS },
  { doc_id: 5, path: `${MANUALS}/thermostat-quickstart.txt`, title: "Thermostat quick start", mtime_ns: 1_660_000_000e9, page_count: 1, kind: "text", folder: MANUALS },
  { doc_id: 6, path: `${RESEARCH}/grid-tariffs-overview.pdf`, title: "Dynamic Grid Tariffs: An Overview", mtime_ns: 1_705_000_000e9, page_count: 12, kind: "pdf", folder: RESEARCH },
];

export const findDoc = (docId: number): MockDoc | undefined => DOCS.find((d) => d.doc_id === docId);

export const now = () => Math.floor(Date.now() / 1000);

/** Like the shell's ids: stable per path, and not a path. */
export const folderId = (path: string): string => {
  let h = 0x811c9dc5;
  for (const c of path) h = Math.imul(h ^ c.codePointAt(0)!, 0x01000193) >>> 0;
  return `f${h.toString(16).padStart(8, "0")}`;
};

function folder(path: string, over: Partial<FolderStatus>): FolderStatus {
  return {
    id: folderId(path),
    path,
    state: "up_to_date",
    files_total: 0,
    files_done: 0,
    pages: 0,
    chunks: 0,
    embedded: 0,
    embed_total: 0,
    rate_files_per_s: null,
    eta_s: null,
    failed: [],
    last_indexed: now() - 3600 * 5,
    error: null,
    ocr: null,
    ...over,
  };
}

function sampleFolders(): FolderStatus[] {
  return [
    folder(RESEARCH, {
      files_total: 214,
      files_done: 214,
      pages: 3120,
      chunks: 9870,
      failed: [
        { path: `${RESEARCH}/scans/old-invoice-1998.pdf`, reason: "no text layer (scanned image); OCR is not enabled" },
        { path: `${RESEARCH}/drafts/locked.pdf`, reason: "encrypted PDF (password required)" },
      ],
    }),
    folder(MANUALS, {
      state: "indexing",
      files_total: 120,
      files_done: 37,
      pages: 1480,
      chunks: 4410,
      rate_files_per_s: 2.4,
      eta_s: 35,
      last_indexed: null,
    }),
    folder(`${HOME}/Archive (external disk)`, { state: "unavailable", files_total: 88, files_done: 88, pages: 910, chunks: 2700, last_indexed: now() - 86400 * 12 }),
  ];
}

const RUNNING = ["indexing", "embedding", "paused", "queued"];

export class MockLibrary {
  private folders: FolderStatus[];
  private paused = false;
  private weakSandboxAccepted = false;

  constructor(private flags: MockFlags) {
    this.folders = flags.has("empty") ? [] : sampleFolders();
  }

  status(): LibraryStatus {
    const f = this.folders;
    const busy = f.some((x) => x.state === "indexing" || x.state === "embedding" || x.state === "queued");
    return {
      folders: structuredClone(f),
      documents: f.length === 0 ? 0 : DOCS.length + f.reduce((a, x) => a + x.files_done, 0),
      chunks: f.reduce((a, x) => a + x.chunks, 0),
      pending_vectors: f.reduce((a, x) => a + Math.max(0, x.embed_total - x.embedded), 0),
      paused: this.paused,
      busy: busy && !this.paused,
      error: this.flags.has("liberror")
        ? "The library could not start: embedding model not found at models/bge-small-en-v1.5. Run models/fetch.sh"
        : null,
      notice: this.flags.has("notice") ? { code: "events_lost", why: "the watcher's queue overflowed" } : null,
      sandbox: this.flags.has("weaksandbox")
        ? { missing: ["file_access"], accepted: this.weakSandboxAccepted, error: null }
        : { missing: [], accepted: false, error: null },
    };
  }

  /** Adds the paths not in the library yet; returns those. */
  add(paths: string[], filesEach: number): string[] {
    const added = paths.filter((p) => !this.folders.some((f) => f.path === p));
    for (const p of added) this.folders.push(folder(p, { state: "queued", files_total: filesEach, last_indexed: null }));
    return added;
  }

  nextFolderPath(): string {
    return `${HOME}/Papers ${this.folders.length + 1}`;
  }

  remove(id: string): boolean {
    const before = this.folders.length;
    this.folders = this.folders.filter((f) => f.id !== id);
    return this.folders.length < before;
  }

  pause(): void {
    this.paused = true;
    for (const f of this.folders) if (f.state === "indexing" || f.state === "embedding") f.state = "paused";
  }

  resume(): void {
    this.paused = false;
    for (const f of this.folders) if (f.state === "paused") f.state = f.embed_total ? "embedding" : "indexing";
  }

  cancel(): void {
    this.paused = false;
    for (const f of this.folders) {
      if (!RUNNING.includes(f.state)) continue;
      f.state = "stopped"; // partly indexed
      f.eta_s = null;
      f.rate_files_per_s = null;
    }
  }

  acceptWeakSandbox(): void {
    this.weakSandboxAccepted = true;
  }

  reindex(): void {
    for (const f of this.folders) if (f.state !== "unavailable") Object.assign(f, { state: "queued", files_done: 0, pages: 0, chunks: 0 });
  }

  /** One step of the indexing simulation; true when anything changed. */
  tick(): boolean {
    if (this.paused) return false;
    let changed = false;
    for (const f of this.folders) {
      if (f.state === "queued") {
        f.state = "indexing";
        f.files_total = f.files_total || 60;
      } else if (f.state === "indexing") {
        f.files_done = Math.min(f.files_total, f.files_done + 1);
        f.pages += 11;
        f.chunks += 33;
        f.rate_files_per_s = 2.2 + Math.random() * 0.6;
        f.eta_s = (f.files_total - f.files_done) / f.rate_files_per_s;
        if (f.files_done >= f.files_total) {
          f.state = "embedding";
          f.embed_total = 600;
          f.embedded = 0;
          f.rate_files_per_s = null;
        }
      } else if (f.state === "embedding") {
        f.embedded = Math.min(f.embed_total, f.embedded + 60);
        f.eta_s = (f.embed_total - f.embedded) / 120;
        if (f.embedded >= f.embed_total) {
          f.state = "up_to_date";
          f.eta_s = null;
          f.embedded = f.embed_total = 0;
          f.last_indexed = now();
        }
      } else continue;
      changed = true;
    }
    return changed;
  }
}
