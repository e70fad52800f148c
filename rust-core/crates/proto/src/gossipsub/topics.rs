//! Topic names and the small indices the router keys its state by. Names are what travels;
//! a remote peer can name any topic, so the table is bounded.

use std::collections::BTreeMap;

/// A topic as the router knows it: an index into its topic table (0 is the configured topic,
/// the only one in the simulator).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TopicId(pub u16);

impl TopicId {
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Topics a node keeps track of at most (its own and those its peers subscribe to).
pub const MAX_TOPICS: usize = 256;
/// The longest topic name accepted.
pub const MAX_TOPIC_BYTES: usize = 256;

#[derive(Clone, Debug, Default)]
pub struct TopicNames {
    names: Vec<Box<str>>,
    by_name: BTreeMap<Box<str>, TopicId>,
}

impl TopicNames {
    /// The id of `name`, adding it if there is room.
    pub fn intern(&mut self, name: &str) -> Option<TopicId> {
        if let Some(&id) = self.by_name.get(name) {
            return Some(id);
        }
        if self.names.len() >= MAX_TOPICS || name.len() > MAX_TOPIC_BYTES {
            return None;
        }
        let id = TopicId(self.names.len() as u16);
        self.names.push(name.into());
        self.by_name.insert(name.into(), id);
        Some(id)
    }

    pub fn find(&self, name: &str) -> Option<TopicId> {
        self.by_name.get(name).copied()
    }

    pub fn name(&self, id: TopicId) -> Option<&str> {
        self.names.get(id.idx()).map(|n| &n[..])
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_get_stable_ids_within_a_bound() {
        let mut t = TopicNames::default();
        assert_eq!(t.intern("a"), Some(TopicId(0)));
        assert_eq!(t.intern("b"), Some(TopicId(1)));
        assert_eq!(t.intern("a"), Some(TopicId(0)));
        assert_eq!(t.name(TopicId(1)), Some("b"));
        assert_eq!(t.intern(&"x".repeat(MAX_TOPIC_BYTES + 1)), None);
        for i in 0..MAX_TOPICS {
            t.intern(&i.to_string());
        }
        assert_eq!(t.len(), MAX_TOPICS);
        assert_eq!(t.intern("one too many"), None);
        assert_eq!(t.find("a"), Some(TopicId(0)));
    }
}
