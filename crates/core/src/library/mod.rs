//! The library as a long-running program sees it: folders that are indexed on a thread of
//! their own (the single writer), watched for changes, paused, resumed and cancelled, with a
//! status per folder and a reader that follows every commit. Knows nothing of any UI.

mod folder;
pub(crate) mod search;
pub(crate) mod health;
mod service;
mod watch;

pub use search::{search_library, LibrarySearch, SearchOrder};
pub use health::{health, FolderHealth, Health};
pub use folder::{folder_id, FailedFile, FolderState, FolderStatus, LibraryStatus, SandboxState};
pub use service::{LibraryService, StatusListener};
