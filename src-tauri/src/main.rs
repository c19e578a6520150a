// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::path::PathBuf;

fn main() {
    pagewise_core::prepare_process();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(pagewise_app::PARSE_WORKER_ARG) {
        let ocr = !args.iter().any(|a| a == pagewise_core::engine::NO_OCR_ARG);
        let Some(pdfium) = args.iter().skip(1).find(|a| !a.starts_with("--")) else {
            eprintln!("usage: pagewise-app {} [--no-ocr] PDFIUM_LIBRARY", pagewise_app::PARSE_WORKER_ARG);
            std::process::exit(2);
        };
        let limits = pagewise_core::parse::PdfLimits { ocr, ..Default::default() };
        let served = pagewise_core::isolation::serve(&PathBuf::from(pdfium), limits);
        std::process::exit(if served.is_ok() { 0 } else { 1 });
    }
    let offer_sample = !args.iter().any(|a| a == "--no-sample");
    let add: Vec<PathBuf> = args.iter().filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    if let Err(e) = pagewise_app::run(add, offer_sample) {
        eprintln!("pagewise-app: {e}");
        std::process::exit(1);
    }
}
