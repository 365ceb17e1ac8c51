//! Compact maps from the paths of one call's arguments to their schema entries.
//!
//! An object of 100,000 keys has 100,000 paths: keeping each as a string in a hash map took
//! about 75 bytes a key, twice what the key takes in the call. [`PathIds`] keeps a keyed
//! 64-bit hash of each path instead (16 bytes), and [`ElementIds`] the entries of an array's
//! elements as runs (a long array whose elements share their schema is one run).

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

/// Path → entry. Paths are kept as hashes keyed at random for each index, so no input can
/// be made to collide; should two paths of one call still share a hash with different
/// entries, [`insert`](Self::insert) says so and the index is built again with the paths
/// themselves as keys ([`PathIds::exact`]), so no path of the arguments is answered for
/// another. (A path that is not in the arguments is answered for one that is only when their
/// hashes meet: a chance of about one in 2^64 divided by the number of paths.)
#[derive(Debug)]
pub(super) enum PathIds {
    /// Keyed hashes of the paths.
    Hashed {
        state: RandomState,
        ids: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    },
    /// The paths themselves.
    Exact(HashMap<String, u32>),
}

impl Default for PathIds {
    fn default() -> Self {
        PathIds::Hashed {
            state: RandomState::new(),
            ids: HashMap::default(),
        }
    }
}

impl PathIds {
    /// A map keyed by the paths themselves.
    pub(super) fn exact() -> Self {
        PathIds::Exact(HashMap::new())
    }

    /// Records `path` → `id`. `false` when another path with the same hash has another entry
    /// (the map can no longer tell them apart).
    pub(super) fn insert(&mut self, path: &str, id: u32) -> bool {
        match self {
            PathIds::Hashed { state, ids } => Self::insert_hash(ids, state.hash_one(path), id),
            PathIds::Exact(ids) => {
                ids.insert(path.to_owned(), id);
                true
            }
        }
    }

    fn insert_hash(
        ids: &mut HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
        hash: u64,
        id: u32,
    ) -> bool {
        // A path is recorded once: a hash seen before is another path's.
        *ids.entry(hash).or_insert(id) == id
    }

    /// The entry of `path`.
    pub(super) fn get(&self, path: &str) -> Option<u32> {
        match self {
            PathIds::Hashed { state, ids } => ids.get(&state.hash_one(path)).copied(),
            PathIds::Exact(ids) => ids.get(path).copied(),
        }
    }
}

/// A hasher for keys that are already uniformly distributed hashes: it passes them through.
#[derive(Debug, Default)]
pub(super) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The entries of an array's elements, in order, as runs of equal entries.
#[derive(Debug, Default)]
pub(super) struct ElementIds {
    len: usize,
    /// (index of the first element of the run, entry), by index.
    runs: Vec<(usize, u32)>,
}

impl ElementIds {
    /// Appends the next element's entry.
    pub(super) fn push(&mut self, id: u32) {
        if self.runs.last().is_none_or(|&(_, last)| last != id) {
            self.runs.push((self.len, id));
        }
        self.len += 1;
    }

    /// The entry of element `i`.
    pub(super) fn get(&self, i: usize) -> Option<u32> {
        if i >= self.len {
            return None;
        }
        let run = self.runs.partition_point(|&(start, _)| start <= i);
        self.runs.get(run.checked_sub(1)?).map(|&(_, id)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_answer_as_a_list_would() {
        let list = [3u32, 3, 3, 5, 5, 3, 7, 7, 7, 7, 1];
        let mut ids = ElementIds::default();
        for &id in &list {
            ids.push(id);
        }
        assert_eq!(ids.runs.len(), 5);
        for (i, &id) in list.iter().enumerate() {
            assert_eq!(ids.get(i), Some(id));
        }
        assert_eq!(ids.get(list.len()), None);
        assert_eq!(ElementIds::default().get(0), None);
    }

    #[test]
    fn hashed_and_exact_paths_agree_and_a_collision_is_reported() {
        let mut hashed = PathIds::default();
        let mut exact = PathIds::exact();
        for i in 0..1000u32 {
            let path = format!("/extra/key_{i}");
            assert!(hashed.insert(&path, i % 7));
            assert!(exact.insert(&path, i % 7));
        }
        for i in 0..1000u32 {
            let path = format!("/extra/key_{i}");
            assert_eq!(hashed.get(&path), Some(i % 7));
            assert_eq!(exact.get(&path), Some(i % 7));
        }
        assert_eq!(exact.get("/extra/other"), None);
        // Two paths with one hash: the same entry is harmless, another one is reported.
        let mut ids = HashMap::default();
        assert!(PathIds::insert_hash(&mut ids, 42, 1));
        assert!(PathIds::insert_hash(&mut ids, 42, 1));
        assert!(!PathIds::insert_hash(&mut ids, 42, 2));
    }
}
