//! Pages are what users cite, so chunk scores are gathered per page: a page is as good as
//! its best passage, and a little better when a second passage also matches. Only the second
//! counts: a sum over all passages would favour long pages for their length.

use std::collections::HashMap;

/// How much a page's second-best passage adds, relative to its own score.
const SUPPORT_SHARE: f32 = 0.25;

/// `fused` is (chunk id, score) best first; `page_of` gives each chunk's (document, page).
/// Returns chunk ids re-ordered so that pages come in order of their gathered score, each
/// page's best passage first and its other passages right after it.
pub fn rank_by_page(fused: &[(i64, f32)], page_of: &HashMap<i64, (i64, u32)>) -> Vec<(i64, f32)> {
    let mut pages: Vec<((i64, u32), f32, Vec<(i64, f32)>)> = Vec::new();
    let mut index: HashMap<(i64, u32), usize> = HashMap::new();
    for &(id, score) in fused {
        let Some(&key) = page_of.get(&id) else { continue };
        match index.get(&key) {
            Some(&i) => {
                if pages[i].2.len() == 1 {
                    pages[i].1 += SUPPORT_SHARE * score;
                }
                pages[i].2.push((id, score));
            }
            None => {
                index.insert(key, pages.len());
                pages.push((key, score, vec![(id, score)]));
            }
        }
    }
    // Stable: equal page scores keep the order of their best passages.
    pages.sort_by(|a, b| b.1.total_cmp(&a.1));
    pages.into_iter().flat_map(|(_, page_score, chunks)| chunks.into_iter().map(move |(id, _)| (id, page_score))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_with_several_matches_rises() {
        let fused = vec![(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.1)];
        let page_of: HashMap<i64, (i64, u32)> = [(1, (1, 1)), (2, (2, 5)), (3, (2, 5)), (4, (3, 1))].into_iter().collect();
        let ranked = rank_by_page(&fused, &page_of);
        let ids: Vec<i64> = ranked.iter().map(|x| x.0).collect();
        assert_eq!(ids, vec![2, 3, 1, 4], "page 5 of doc 2 has two matches (0.9 + 0.25 × 0.8 > 1.0)");
    }
}
