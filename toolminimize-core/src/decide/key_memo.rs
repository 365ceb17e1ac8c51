//! A bounded, per-thread memo of what a field or member key says: a tool's keys come back call
//! after call, and reading a key's words against a table costs several times a look-up.

use std::cell::RefCell;
use std::thread::LocalKey;

use rustc_hash::FxHashMap;

/// Keys remembered per memo and thread, at most (the memo is emptied when full).
const KEYS_KEPT: usize = 512;

/// Longest key remembered, in bytes; a longer one is read each time.
const LONGEST_KEY_KEPT: usize = 64;

/// A memo of what keys say, one per thread (declare it with `thread_local!`).
pub(super) type KeyMemo<T> = RefCell<FxHashMap<Box<str>, T>>;

/// What `read` says of `key`, remembered in `memo`.
pub(super) fn remembered<T: Copy>(
    memo: &'static LocalKey<KeyMemo<T>>,
    key: &str,
    read: impl FnOnce(&str) -> T,
) -> T {
    if key.len() > LONGEST_KEY_KEPT {
        return read(key);
    }
    memo.with_borrow_mut(|seen| {
        if let Some(&said) = seen.get(key) {
            return said;
        }
        if seen.len() >= KEYS_KEPT {
            seen.clear();
        }
        let said = read(key);
        seen.insert(Box::from(key), said);
        said
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_read_once_and_a_long_key_each_time() {
        thread_local! {
            static MEMO: KeyMemo<usize> = RefCell::default();
        }
        let mut reads = 0;
        for _ in 0..3 {
            assert_eq!(
                remembered(&MEMO, "patient_name", |k| {
                    reads += 1;
                    k.len()
                }),
                12
            );
        }
        assert_eq!(reads, 1);
        let long = "k".repeat(LONGEST_KEY_KEPT + 1);
        for _ in 0..2 {
            remembered(&MEMO, &long, |k| {
                reads += 1;
                k.len()
            });
        }
        assert_eq!(reads, 3);
    }
}
