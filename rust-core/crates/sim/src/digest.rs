//! The run's fingerprint: SHA-256 over a canonical log of every processed event. Records
//! are buffered and hashed in blocks, which keeps the cost small next to the event work.

use sha2::{Digest, Sha256};

const BLOCK: usize = 1 << 16;

pub struct EventLog {
    hasher: Sha256,
    buf: Vec<u8>,
}

impl Default for EventLog {
    fn default() -> Self {
        EventLog {
            hasher: Sha256::new(),
            buf: Vec::with_capacity(BLOCK + 64),
        }
    }
}

impl EventLog {
    /// One event: its time, a kind tag and three numbers that identify it.
    #[inline]
    pub fn record(&mut self, time_us: u64, kind: u8, a: u32, b: u32, c: u32) {
        self.buf.extend_from_slice(&time_us.to_le_bytes());
        self.buf.push(kind);
        self.buf.extend_from_slice(&a.to_le_bytes());
        self.buf.extend_from_slice(&b.to_le_bytes());
        self.buf.extend_from_slice(&c.to_le_bytes());
        if self.buf.len() >= BLOCK {
            self.hasher.update(&self.buf);
            self.buf.clear();
        }
    }

    pub fn finish(mut self) -> String {
        self.hasher.update(&self.buf);
        let out = self.hasher.finalize();
        out.iter().map(|b| format!("{b:02x}")).collect()
    }
}
