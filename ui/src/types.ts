// Types shared with the Tauri shell. They are generated from the Rust structs by
// ts-rs into ./bindings (checked by a Rust test — do not edit those files); this
// module only re-exports them so the rest of the UI imports from one place.
// Field names are snake_case exactly as serde writes them; i64 fields are `number`
// and Option<T> is `T | null`.

export type { Answer } from "./bindings/Answer";
export type { AnswerMode } from "./bindings/AnswerMode";
export type { AppError } from "./bindings/AppError";
export type { AskStreamEvent } from "./bindings/AskStreamEvent";
export type { AttributionCounts } from "./bindings/AttributionCounts";
export type { ExtractedDocument } from "./bindings/ExtractedDocument";
export type { ExtractedValue } from "./bindings/ExtractedValue";
export type { Citation } from "./bindings/Citation";
export type { ConversationSummary } from "./bindings/ConversationSummary";
export type { DocumentInfo } from "./bindings/DocumentInfo";
export type { DownloadEvent } from "./bindings/DownloadEvent";
export type { EmbedSpeed } from "./bindings/EmbedSpeed";
export type { ErrorKind } from "./bindings/ErrorKind";
export type { EvidencePage } from "./bindings/EvidencePage";
export type { EvidencePassage } from "./bindings/EvidencePassage";
export type { ExportFormat } from "./bindings/ExportFormat";
export type { FailedFile } from "./bindings/FailedFile";
export type { FolderState } from "./bindings/FolderState";
export type { FolderStatus } from "./bindings/FolderStatus";
export type { InstalledEmbedder } from "./bindings/InstalledEmbedder";
export type { InstalledModel } from "./bindings/InstalledModel";
export type { KeySource } from "./bindings/KeySource";
export type { ModelSpeed } from "./bindings/ModelSpeed";
export type { LibraryStatus } from "./bindings/LibraryStatus";
export type { FacetCounts } from "./bindings/FacetCounts";
export type { FacetValue } from "./bindings/FacetValue";
export type { LibrarySearch } from "./bindings/LibrarySearch";
export type { SearchFilter } from "./bindings/SearchFilter";
export type { SearchOrder } from "./bindings/SearchOrder";
export type { SearchRow } from "./bindings/SearchRow";
export type { ModelKind } from "./bindings/ModelKind";
export type { ModelStatus } from "./bindings/ModelStatus";
export type { NetworkLogRow } from "./bindings/NetworkLogRow";
export type { NetworkPurpose } from "./bindings/NetworkPurpose";
export type { PageKind } from "./bindings/PageKind";
export type { PageView } from "./bindings/PageView";
export type { Rect } from "./bindings/Rect";
export type { RetrievalSignals } from "./bindings/RetrievalSignals";
export type { Sentence } from "./bindings/Sentence";
export type { SentenceStatus } from "./bindings/SentenceStatus";
export type { Settings } from "./bindings/Settings";
export type { Step } from "./bindings/Step";
export type { Timings } from "./bindings/Timings";
export type { Turn } from "./bindings/Turn";
export type { JsonValue } from "./bindings/serde_json/JsonValue";
