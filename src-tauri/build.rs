fn main() {
    // Each command becomes a permission (allow-<name>); the capability grants exactly these.
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(&[
        "library_status",
        "add_folder_dialog",
        "add_paths",
        "remove_folder",
        "pause_indexing",
        "resume_indexing",
        "cancel_indexing",
        "reindex_all",
        "list_documents",
        "ask",
        "stop_answer",
        "suggested_questions",
        "list_conversations",
        "open_conversation",
        "rename_conversation",
        "delete_conversation",
        "answer_markdown",
        "export_answer",
        "report_citation",
        "model_status",
        "get_settings",
        "set_settings",
        "pick_model_file",
        "installed_models",
        "view_page",
        "page_image",
        "open_external",
    ])))
    .expect("tauri build script failed");
}
