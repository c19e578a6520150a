//! Recall of usearch settings against exact search on an index's real chunk vectors.
//! Run: cargo run --release -p pagewise-core --example vector_recall -- DATA_DIR [QUERIES]
//! (see bench/vector_recall.sh). Queries are stored chunk vectors (every 25th), which sit in
//! the same distribution as real query embeddings.

use std::path::PathBuf;
use std::time::Instant;

use pagewise_core::index::{Catalog, VectorIndex, VectorSettings};
use usearch::ScalarKind;

fn exact_top(vectors: &[(i64, Vec<f32>)], q: &[f32], k: usize) -> Vec<i64> {
    let mut scored: Vec<(f32, i64)> =
        vectors.iter().map(|(id, v)| (v.iter().zip(q).map(|(a, b)| a * b).sum::<f32>(), *id)).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(k).map(|(_, id)| id).collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let data = PathBuf::from(std::env::args().nth(1).ok_or("usage: vector_recall DATA_DIR")?);
    let catalog = Catalog::open_reader(&data.join("pagewise.sqlite"))?;
    let mut vectors = Vec::new();
    catalog.for_each_vector(|id, v| {
        vectors.push((id, v));
        Ok(())
    })?;
    let dims = vectors.first().map(|(_, v)| v.len()).ok_or("no vectors in this index")?;
    let queries: Vec<&Vec<f32>> = vectors.iter().step_by(25).map(|(_, v)| v).collect();
    let k = 10;
    let truth: Vec<Vec<i64>> = queries.iter().map(|q| exact_top(&vectors, q, k)).collect();
    println!("{} vectors of {dims} dimensions, {} queries, recall@{k} against exact search", vectors.len(), queries.len());
    println!("{:<5} {:>4} {:>6} {:>6} {:>9} {:>10} {:>10} {:>9}", "kind", "M", "ef_add", "ef", "recall", "adds/s", "query µs", "file MB");
    let tmp = tempfile::tempdir()?;
    for (name, kind) in [("f32", ScalarKind::F32), ("f16", ScalarKind::F16), ("i8", ScalarKind::I8)] {
        for (m, ef_add, ef) in [(16, 128, 64), (16, 128, 32), (32, 200, 64), (8, 64, 32)] {
            let settings = VectorSettings { quantization: kind, connectivity: m, expansion_add: ef_add, expansion_search: ef };
            let path = tmp.path().join(format!("{name}-{m}-{ef}.usearch"));
            let mut index = VectorIndex::empty(&path, dims, settings)?;
            let started = Instant::now();
            for (id, v) in &vectors {
                index.upsert(*id, v)?;
            }
            let add_rate = vectors.len() as f64 / started.elapsed().as_secs_f64();
            let started = Instant::now();
            let mut hits = 0usize;
            for (q, t) in queries.iter().zip(&truth) {
                let found: Vec<i64> = index.search(q, k, None)?.into_iter().map(|(id, _)| id).collect();
                hits += t.iter().filter(|id| found.contains(id)).count();
            }
            let query_us = started.elapsed().as_secs_f64() * 1e6 / queries.len() as f64;
            index.save_atomic()?;
            let mb = std::fs::metadata(&path)?.len() as f64 / 1e6;
            let recall = hits as f64 / (queries.len() * k) as f64;
            println!("{name:<5} {m:>4} {ef_add:>6} {ef:>6} {recall:>9.4} {add_rate:>10.0} {query_us:>10.0} {mb:>9.1}");
        }
    }
    Ok(())
}
