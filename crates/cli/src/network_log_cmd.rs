//! `pagewise network-log`: every connection Pagewise has made from this data dir (the same
//! list as Settings → Network), grouped into runs to one host for one purpose.

use anyhow::Result;
use pagewise_core::netlog;

use crate::CommandContext;

/// What the list cannot show by itself: that nothing outside it connects.
const NOTHING_ELSE: &str = "Nothing else connects: no telemetry, no update checks.";

pub fn run(ctx: &CommandContext, json: bool) -> Result<i32> {
    let rows = netlog::rows(&ctx.data_dir)?;
    if json {
        println!("{}", serde_json::to_string(&rows)?);
        return Ok(0);
    }
    if rows.is_empty() {
        println!("No connections: Pagewise has made no network connection from this data dir.");
    }
    for row in &rows {
        let when = if row.first == row.last {
            netlog::utc_time(row.first)
        } else {
            format!("{} – {}", netlog::utc_time(row.first), netlog::utc_time(row.last))
        };
        let requests = if row.count == 1 { "1 request".to_string() } else { format!("{} requests", row.count) };
        println!("{when}  {}:{}  {}  ({requests})", row.host, row.port, row.purpose.describe());
    }
    println!("{NOTHING_ELSE}");
    Ok(0)
}
