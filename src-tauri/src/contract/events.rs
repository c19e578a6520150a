//! The events the shell sends to the page, each bound to its payload type so an event can
//! only be sent with what the page expects of it.

use std::marker::PhantomData;
use std::path::PathBuf;

use pagewise_core::library::LibraryStatus;
use serde::Serialize;
use tauri::{Emitter, Runtime};

use super::AppError;

/// An event name and the type of its payload.
pub struct Event<T> {
    pub name: &'static str,
    payload: PhantomData<fn(&T)>,
}

impl<T: Serialize + Clone> Event<T> {
    const fn named(name: &'static str) -> Event<T> {
        Event { name, payload: PhantomData }
    }

    /// Sends the event to every window; a window that is gone is no error.
    pub fn emit<R: Runtime>(&self, to: &impl Emitter<R>, payload: &T) {
        let _ = to.emit(self.name, payload.clone());
    }
}

macro_rules! events {
    ($( $(#[$doc:meta])* $event:ident: $payload:ty = $name:literal; )*) => {
        $( $(#[$doc])* pub const $event: Event<$payload> = Event::named($name); )*

        /// The events with their payload types, for the generated TypeScript contract.
        #[cfg(test)]
        pub(crate) fn event_specs(cfg: &ts_rs::Config) -> Vec<super::typescript::Spec> {
            vec![$( super::typescript::Spec::of::<$payload>($name, cfg) ),*]
        }
    };
}

events! {
    /// Every change of the library's status (folders, progress, failures).
    LIBRARY_STATUS: LibraryStatus = "library-status";
    /// Files dropped on the window were added; the paths as the library holds them.
    FILES_DROPPED: Vec<PathBuf> = "files-dropped";
    /// Something the shell did on its own (not asked by a command) failed.
    APP_ERROR: AppError = "app-error";
}
