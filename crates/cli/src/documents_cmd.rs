//! `pagewise documents`: every indexed document with the facets routing uses (organisation,
//! kind, period, language), so a wrong facet can be seen and reported.

use std::time::Duration;

use anyhow::Result;
use pagewise_core::{Queries, Reader};

use crate::CommandContext;

pub fn run(ctx: &CommandContext, json: bool) -> Result<i32> {
    let engine = Reader::open(ctx.config(Duration::from_secs(60))?)?;
    let documents = engine.documents()?;
    if json {
        println!("{}", serde_json::to_string(&documents)?);
        return Ok(0);
    }
    for d in &documents {
        let facets = d.facets.as_ref().map(|f| f.summary()).unwrap_or_else(|| "(facets not extracted yet: run `pagewise index`)".into());
        println!("{:>4}  {}  {} pages\n      {facets}", d.doc_id, d.path.display(), d.page_count);
    }
    println!("{} documents", documents.len());
    Ok(0)
}
