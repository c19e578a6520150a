//! What the shell holds between commands: the library service (started on a thread of its
//! own so the window opens at once), the loaded chat model, the answer being generated, and
//! the settings. Every piece sits behind its own lock; no command holds two.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use pagewise_core::answer::Conversations;
use pagewise_core::progress::LibraryNotice;
use pagewise_core::answer::{Generator, LlamaGenerator, LlamaSettings};
use pagewise_core::library::{LibraryService, LibraryStatus, StatusListener};
use pagewise_core::isolation::IsolatedWorker;
use pagewise_core::answer::EndpointGenerator;
use pagewise_core::openai::{BoundKey, EndpointSettings};
use pagewise_core::viewer::{PageRender, PageRequest};
use pagewise_core::{models, EngineConfig, PdfParsing, Queries, Writer};

use crate::contract::error::{AppError, ErrorKind};
use crate::settings::Settings;

/// How the app was started: where things live and what to add at once.
#[derive(Clone)]
pub struct StartOptions {
    pub config_dir: PathBuf,
    /// Overrides the data dir of the settings (tests, portable setups).
    pub data_dir: Option<PathBuf>,
    /// Files and folders given on the command line.
    pub add: Vec<PathBuf>,
    /// The bundled sample folder, offered on the first start.
    pub sample_dir: Option<PathBuf>,
    /// The program that parses PDFs in worker processes; this executable when `None`.
    pub worker_program: Option<PathBuf>,
    /// Answers the confirmations the page cannot give itself (a new answer server, embedding
    /// server or chat model; parsing with an incomplete sandbox); `None` asks with the
    /// system's own dialog. Tests answer here.
    pub confirm: Option<Confirm>,
}

/// Says yes or no to a question put to the user.
pub type Confirm = Arc<dyn Fn(&str) -> bool + Send + Sync>;

enum LibrarySlot {
    Starting,
    Ready(Arc<LibraryService>),
    Failed(String),
}

/// What the loaded generator was made from: a new choice in Settings replaces it.
#[derive(PartialEq)]
enum GeneratorSource {
    Local { path: PathBuf, gpu: bool },
    Endpoint { url: String, model: String },
}

enum GeneratorSlot {
    NotLoaded,
    Loaded { source: GeneratorSource, generator: Arc<dyn Generator> },
}

struct Inner {
    config_dir: PathBuf,
    worker_program: Option<PathBuf>,
    confirm: Option<Confirm>,
    /// The chat model file the user last chose in a native dialog (picked, imported or
    /// downloaded): choosing it in Settings needs no second confirmation.
    chosen_natively: Mutex<Option<PathBuf>>,
    data_dir: PathBuf,
    settings: Mutex<Settings>,
    library: Mutex<LibrarySlot>,
    library_ready: Condvar,
    generator: Mutex<GeneratorSlot>,
    answering: Mutex<Option<Arc<AtomicBool>>>,
    /// The worker process that renders PDF pages for the viewer (started on first use).
    viewer: Mutex<Option<IsolatedWorker>>,
    /// The model download in progress, if any.
    download: DownloadSlot,
}

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

const LIBRARY_WAIT: Duration = Duration::from_secs(120);

impl AppState {
    /// Creates the state and starts the library in the background; `listener` hears every
    /// status change.
    pub fn start(options: StartOptions, listener: StatusListener) -> AppState {
        let settings = Settings::load(&options.config_dir);
        let data_dir = options.data_dir.clone().unwrap_or_else(|| settings.effective_data_dir());
        // Every request the app sends from now on is logged in its data dir (Settings → Network).
        pagewise_core::netlog::record_to(&data_dir);
        let state = AppState {
            inner: Arc::new(Inner {
                config_dir: options.config_dir.clone(),
                worker_program: options.worker_program.clone(),
                confirm: options.confirm.clone(),
                chosen_natively: Mutex::new(None),
                data_dir,
                settings: Mutex::new(settings),
                library: Mutex::new(LibrarySlot::Starting),
                library_ready: Condvar::new(),
                generator: Mutex::new(GeneratorSlot::NotLoaded),
                answering: Mutex::new(None),
                viewer: Mutex::new(None),
                download: Default::default(),
            }),
        };
        let starting = state.clone();
        let listener: Arc<dyn Fn(&LibraryStatus) + Send + Sync> = Arc::from(listener);
        let for_service = Arc::clone(&listener);
        let spawned = std::thread::Builder::new().name("pagewise-start".into()).spawn(move || {
            let slot = match starting.open_library(&options, Box::new(move |status| for_service(status))) {
                Ok(service) => LibrarySlot::Ready(Arc::new(service)),
                Err(message) => LibrarySlot::Failed(message),
            };
            *lock(&starting.inner.library) = slot;
            starting.inner.library_ready.notify_all();
            // The library's own events may all have gone out while this slot still said
            // "starting" (an unchanged library has nothing more to say), and a page that asked
            // in between would wait for ever: it hears the settled state once more.
            listener(&starting.library_status());
        });
        if let Err(e) = spawned {
            *lock(&state.inner.library) = LibrarySlot::Failed(format!("cannot start the library: {e}"));
        }
        state
    }

    fn open_library(&self, options: &StartOptions, listener: StatusListener) -> Result<LibraryService, String> {
        let config = self.engine_config()?;
        let writer = Writer::open(config).map_err(|e| e.to_string())?;
        let first_start = writer.roots().map_err(|e| e.to_string())?.is_empty();
        let service = LibraryService::start(writer, listener).map_err(|e| e.to_string())?;
        let mut add = options.add.clone();
        let offer_sample = first_start && !lock(&self.inner.settings).sample_offered;
        if let (true, Some(sample)) = (offer_sample, &options.sample_dir) {
            // Given as an argument (or found by another path), the sample is not added twice.
            if sample.is_dir() && !add.iter().any(|a| crate::same_content::same_content(a, sample)) {
                add.push(sample.clone());
            }
            let mut settings = lock(&self.inner.settings);
            settings.sample_offered = true;
            settings.save(&self.inner.config_dir)?;
        }
        if !add.is_empty() {
            service.add(add).map_err(|e| e.to_string())?;
        }
        Ok(service)
    }

    /// The engine configuration from the settings: models located, PDFs parsed in worker
    /// processes started from this executable.
    pub fn engine_config(&self) -> Result<EngineConfig, String> {
        let (embed_model, skip_ocr) = {
            let settings = lock(&self.inner.settings);
            (settings.embed_model.clone(), settings.skip_ocr)
        };
        let models = models::locate(Some(&self.inner.data_dir), embed_model.as_deref()).map_err(|e| e.to_string())?;
        let mut config = EngineConfig::new(self.inner.data_dir.clone(), models);
        config.ocr = !skip_ocr;
        let settings = self.settings();
        config.accept_weak_sandbox = settings.accept_weak_sandbox;
        if settings.embed_use_endpoint {
            config.embed_endpoint = Some(self.endpoint_settings(&settings.embed_endpoint_url, &settings.embed_endpoint_model));
        }
        let program = match &self.inner.worker_program {
            Some(program) => program.clone(),
            None => std::env::current_exe().map_err(|e| format!("cannot find this program for the PDF worker: {e}"))?,
        };
        config.pdf = PdfParsing::Worker {
            program,
            args: vec![crate::PARSE_WORKER_ARG.into()],
            timeout: Duration::from_secs(60),
            memory_limit: Some(4 << 30),
        };
        Ok(config)
    }

    /// The library, waiting for it while it starts.
    pub fn library(&self) -> Result<Arc<LibraryService>, AppError> {
        let slot = lock(&self.inner.library);
        let (slot, _) = self
            .inner
            .library_ready
            .wait_timeout_while(slot, LIBRARY_WAIT, |s| matches!(s, LibrarySlot::Starting))
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match &*slot {
            LibrarySlot::Ready(service) => Ok(Arc::clone(service)),
            LibrarySlot::Failed(message) => Err(AppError::new(ErrorKind::LibraryUnavailable, message.clone())),
            LibrarySlot::Starting => Err(AppError::new(ErrorKind::LibraryUnavailable, "the library is still starting")),
        }
    }

    /// The library's status, or a status that carries why there is no library.
    pub fn library_status(&self) -> LibraryStatus {
        match &*lock(&self.inner.library) {
            LibrarySlot::Ready(service) => service.status(),
            LibrarySlot::Starting => LibraryStatus { busy: true, notice: Some(LibraryNotice::Starting), ..LibraryStatus::default() },
            LibrarySlot::Failed(message) => LibraryStatus { error: Some(message.clone()), ..LibraryStatus::default() },
        }
    }

    /// The chat model file the settings point at (or the default), or why there is none.
    pub fn chat_model_path(&self) -> Result<PathBuf, String> {
        let chosen = lock(&self.inner.settings).chat_model.clone();
        models::locate_chat_model(Some(&self.inner.data_dir), chosen.as_deref()).map_err(|e| e.to_string())
    }

    /// The chat model, loaded on first use and reloaded when the settings change it: the
    /// local GGUF, or the OpenAI-compatible server when Settings choose one.
    pub fn generator(&self) -> Result<Arc<dyn Generator>, String> {
        let settings = lock(&self.inner.settings).clone();
        let source = if settings.use_endpoint {
            GeneratorSource::Endpoint { url: settings.endpoint_url.trim().to_string(), model: settings.endpoint_model.trim().to_string() }
        } else {
            GeneratorSource::Local { path: self.chat_model_path()?, gpu: settings.gpu_offload && crate::GPU_BUILD }
        };
        let mut slot = lock(&self.inner.generator);
        if let GeneratorSlot::Loaded { source: loaded, generator } = &*slot {
            if *loaded == source {
                return Ok(Arc::clone(generator));
            }
        }
        let generator: Arc<dyn Generator> = match &source {
            GeneratorSource::Local { path, gpu } => {
                let mut llama = LlamaSettings::new(path.clone());
                llama.gpu_layers = if *gpu { 999 } else { 0 };
                Arc::new(LlamaGenerator::load(&llama).map_err(|e| e.to_string())?)
            }
            GeneratorSource::Endpoint { url, model } => Arc::new(EndpointGenerator::connect(&self.endpoint_settings(url, model)).map_err(|e| e.to_string())?),
        };
        *slot = GeneratorSlot::Loaded { source, generator: Arc::clone(&generator) };
        Ok(generator)
    }

    /// Registers a new answer in progress and returns its cancel flag; an earlier one is
    /// cancelled (one answer at a time).
    pub fn begin_answer(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        if let Some(old) = lock(&self.inner.answering).replace(Arc::clone(&flag)) {
            old.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        flag
    }

    /// The cancel flag of a new download, or `None` while another one runs.
    pub fn begin_download(&self) -> Option<Arc<AtomicBool>> {
        self.inner.download.begin()
    }

    pub fn cancel_download(&self) {
        self.inner.download.cancel();
    }

    pub fn end_download(&self) {
        self.inner.download.end();
    }

    pub fn stop_answer(&self) {
        if let Some(flag) = lock(&self.inner.answering).as_ref() {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// Renders a PDF page (and/or finds a quote on it) in the worker process: PDFium on a
    /// hostile file may crash, and that must cost the picture, not the app.
    pub fn render_page(&self, path: &Path, request: PageRequest) -> Result<PageRender, AppError> {
        let mut slot = lock(&self.inner.viewer);
        if slot.is_none() {
            *slot = Some(self.engine_config().map_err(AppError::failed)?.isolated_worker()?);
        }
        let worker = slot.as_mut().ok_or_else(|| AppError::failed("the viewer's worker did not start"))?;
        match worker.render(path, request) {
            Ok(result) => result.map_err(AppError::failed),
            Err(e) => {
                *slot = None;
                Err(e.into())
            }
        }
    }

    pub fn settings(&self) -> Settings {
        lock(&self.inner.settings).clone()
    }

    pub fn save_settings(&self, new: Settings) -> Result<(), String> {
        let mut settings = lock(&self.inner.settings);
        let merged = Settings { sample_offered: settings.sample_offered, ..new };
        merged.save(&self.inner.config_dir)?;
        *settings = merged;
        Ok(())
    }

    pub fn uses_endpoint(&self) -> bool {
        lock(&self.inner.settings).use_endpoint
    }

    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    /// The conversations kept in the app's data dir.
    pub fn conversations(&self) -> pagewise_core::Result<Conversations> {
        Conversations::open(&self.inner.data_dir)
    }
}

impl AppState {
    /// How the app reaches an OpenAI-compatible server: the URL and model from Settings, and
    /// the key only where it belongs (see [`AppState::api_key_for`]).
    pub fn endpoint_settings(&self, url: &str, model: &str) -> EndpointSettings {
        EndpointSettings {
            model: Some(model.trim().to_string()).filter(|m| !m.is_empty()),
            api_key: self.api_key_for(url),
            ..EndpointSettings::new(url.trim())
        }
    }

    /// The stored key, bound to the origin it was given for; a key from before origins were
    /// kept (or from PAGEWISE_API_KEY) belongs to the answer server in Settings.
    pub fn bound_key(&self) -> Option<BoundKey> {
        let (origin, key) = crate::secrets::load(&self.inner.config_dir)?;
        match origin {
            Some(origin) => Some(BoundKey { origin, key }),
            None => BoundKey::for_url(&lock(&self.inner.settings).endpoint_url, &key),
        }
    }

    /// The key to send to `url`: only to the origin the key was given for, and never over
    /// plain http except to this computer. The embedding server and a URL typed before "Find
    /// models" get none unless they are that same server.
    pub fn api_key_for(&self, url: &str) -> Option<String> {
        self.bound_key()?.to_send(url)
    }

    pub fn config_dir(&self) -> &Path {
        &self.inner.config_dir
    }

    /// The user's yes or no to `question` (see [`StartOptions::confirm`]); `None` when the
    /// system dialog should ask.
    pub fn confirm_override(&self, question: &str) -> Option<bool> {
        self.inner.confirm.as_ref().map(|confirm| confirm(question))
    }

    pub fn remember_native_choice(&self, model: &Path) {
        *lock(&self.inner.chosen_natively) = Some(model.to_path_buf());
    }

    pub fn chosen_natively(&self, model: &Path) -> bool {
        lock(&self.inner.chosen_natively).as_deref() == Some(model)
    }
}

/// The flag a running download checks; one download at a time.
#[derive(Default)]
pub struct DownloadSlot(Mutex<Option<Arc<AtomicBool>>>);

impl DownloadSlot {
    pub fn begin(&self) -> Option<Arc<AtomicBool>> {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_some() {
            return None;
        }
        let flag = Arc::new(AtomicBool::new(false));
        *slot = Some(Arc::clone(&flag));
        Some(flag)
    }

    pub fn cancel(&self) {
        if let Some(flag) = self.0.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    pub fn end(&self) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}
