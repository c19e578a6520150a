//! What each command of the contract does (see `contract`): plain functions over the core,
//! run on a blocking thread by the generated Tauri handlers.

pub mod chat;
pub mod confirm;
pub mod export;
pub mod library;
pub mod models;
pub mod search;
pub mod settings;
pub mod table;
pub mod viewer;
