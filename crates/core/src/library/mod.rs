//! The library as a long-running program sees it: folders that are indexed on a thread of
//! their own (the single writer), watched for changes, paused, resumed and cancelled, with a
//! status per folder and a reader that follows every commit. Knows nothing of any UI.

mod folder;
mod service;
mod watch;

pub use folder::{FailedFile, FolderState, FolderStatus, LibraryStatus};
pub use service::{LibraryService, StatusListener};
