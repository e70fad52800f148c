//! The timer table: every host (the simulator's engine, the light node's `Driver`, the test
//! network) keeps one per node, so a protocol can cancel a timer it set instead of tagging
//! each timer with a generation and ignoring stale ones itself.
//!
//! A timer's id names a slot and the slot's generation when the timer was set. Cancelling
//! or firing bumps the generation and frees the slot, so an id is current exactly until
//! then: the host, popping a timer from its queue, hands it to the protocol only if its id
//! is still current. Set, cancel and fire are O(1), and the table never holds more slots
//! than timers were ever pending at once.

/// A timer as its protocol set it; `Ctx::cancel_timer` takes it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimerId {
    slot: u32,
    generation: u32,
}

#[derive(Debug, Default)]
pub struct TimerTable {
    /// The current generation of each slot.
    generations: Vec<u32>,
    /// Slots with no pending timer, most recently freed last.
    free: Vec<u32>,
}

impl TimerTable {
    /// Registers a new pending timer.
    pub fn set(&mut self) -> TimerId {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.generations.push(0);
            (self.generations.len() - 1) as u32
        });
        TimerId {
            slot,
            generation: self.generations[slot as usize],
        }
    }

    /// Withdraws a pending timer; nothing if it already fired or was cancelled.
    pub fn cancel(&mut self, id: TimerId) {
        self.retire(id);
    }

    /// The host popped `id` from its queue: true if it is still pending (the protocol gets
    /// it), false if it was cancelled.
    pub fn fire(&mut self, id: TimerId) -> bool {
        self.retire(id)
    }

    /// Starts loading what `fire(id)` reads and writes.
    #[inline(always)]
    pub fn prefetch(&self, id: TimerId) {
        if let Some(generation) = self.generations.get(id.slot as usize) {
            crate::prefetch::prefetch(generation);
        }
        crate::prefetch::prefetch(self.free.as_ptr_range().end);
    }

    /// Timers set and neither fired nor cancelled.
    pub fn pending(&self) -> usize {
        self.generations.len() - self.free.len()
    }

    fn retire(&mut self, id: TimerId) -> bool {
        match self.generations.get_mut(id.slot as usize) {
            Some(generation) if *generation == id.generation => {
                *generation = generation.wrapping_add(1);
                self.free.push(id.slot);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_timer_does_not_fire_and_its_slot_is_reused() {
        let mut table = TimerTable::default();
        let a = table.set();
        let b = table.set();
        table.cancel(a);
        assert!(!table.fire(a), "cancelled");
        let c = table.set();
        assert_ne!(c, a, "same slot, new generation");
        assert_eq!(table.pending(), 2);
        assert!(table.fire(b));
        assert!(!table.fire(b), "fires once");
        assert!(table.fire(c));
        assert_eq!(table.pending(), 0);
        table.cancel(c); // already fired: nothing
        assert_eq!(table.generations.len(), 2);
    }
}
