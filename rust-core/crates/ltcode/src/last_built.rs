//! Read-only values the nodes of a run share: one copy built from equal inputs in a row, per
//! thread, rather than one per node, whose copies would each cost a cache miss on networks
//! larger than the CPU's caches. The codec's degree table and GossipSub's parameters use it.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A thread's last value built, with what it was built from.
pub type LastBuilt<K, V> = RefCell<Option<(K, V)>>;

/// The value in `slot` if it was built from `key`; otherwise `build()`, kept there for next time.
pub fn reuse_or_build<K: Clone + PartialEq, V: Clone>(
    slot: &'static LocalKey<LastBuilt<K, V>>,
    key: &K,
    build: impl FnOnce() -> V,
) -> V {
    slot.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((built_from, value)) = &*last {
            if built_from == key {
                return value.clone();
            }
        }
        let value = build();
        *last = Some((key.clone(), value.clone()));
        value
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SLOT: LastBuilt<u32, String> = const { RefCell::new(None) };
    }

    #[test]
    fn builds_again_only_for_another_key() {
        let mut builds = 0;
        let mut get = |key: u32| {
            reuse_or_build(&SLOT, &key, || {
                builds += 1;
                format!("built for {key}")
            })
        };
        assert_eq!(get(1), "built for 1");
        assert_eq!(get(1), "built for 1");
        assert_eq!(get(2), "built for 2");
        assert_eq!(get(1), "built for 1");
        assert_eq!(
            builds, 3,
            "1, then 2, then 1 again: only the last key is kept"
        );
    }
}
