//! Codec parameters (Strokkur Table 1 and the reference node's defaults).

use crate::form::Form;

/// Largest coding window (and so codeword degree) the codec accepts.
pub const MAX_WINDOW: usize = 4096;
/// Largest symbol (fixed transaction or fragment) length in bytes.
pub const MAX_SYMBOL_LEN: usize = 65_536;
/// Smallest symbol length: a fragment needs room for its header (see `fragment`).
pub const MIN_SYMBOL_LEN: usize = 8;

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// k: the coding window holds the k most recent transactions; codeword degree is at most k.
    pub window: usize,
    /// Robust Soliton c.
    pub c: f64,
    /// Robust Soliton delta.
    pub delta: f64,
    /// m: the decoder peels with the last m decoded transactions.
    pub peel_window: usize,
    /// tau: a codeword still undecoded this long after arrival is a loss for its sender.
    pub timeout_us: u64,
    /// l: every symbol (transaction or fragment) has exactly this many bytes.
    pub symbol_len: usize,
    /// Pending (undecoded) codewords held at most; beyond it the oldest is dropped as a loss.
    pub max_pending: usize,
    /// Whether codewords carry symbols' bytes or stand-ins for them (see `form`).
    pub form: Form,
    /// Pending codewords held at most from one sender; beyond it that sender's newest is
    /// dropped as a loss (one sender cannot crowd out the others).
    pub max_pending_per_sender: usize,
    /// A new sender gets the newest this many symbols of the peeling window hashed under its
    /// key (an older one it names is decoded again): bounds the work a connecting peer costs.
    pub rekey_window: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            window: 50,
            c: 0.03,
            delta: 0.5,
            peel_window: 262_144,
            timeout_us: 500_000,
            symbol_len: 128,
            max_pending: 65_536,
            form: Form::Bytes,
            max_pending_per_sender: 65_536,
            rekey_window: 262_144,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    Window(usize),
    Soliton,
    PeelWindow(usize),
    SymbolLen(usize),
    MaxPending(usize),
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Window(k) => write!(f, "window {k} not in 1..={MAX_WINDOW}"),
            ParamError::Soliton => write!(f, "soliton needs c > 0 and 0 < delta < 1"),
            ParamError::PeelWindow(m) => write!(f, "peel window {m} must be >= window, <= 2^30"),
            ParamError::SymbolLen(l) => {
                write!(
                    f,
                    "symbol length {l} not in {MIN_SYMBOL_LEN}..={MAX_SYMBOL_LEN}"
                )
            }
            ParamError::MaxPending(n) => write!(
                f,
                "max pending {n} must be >= 1 with max pending * window < 2^31, and at least 1 per sender"
            ),
        }
    }
}

impl std::error::Error for ParamError {}

impl Params {
    /// Bytes of a value: a symbol, or its stand-in.
    pub fn value_len(&self) -> usize {
        self.form.value_len(self.symbol_len)
    }

    /// Every constructor (`CodingWindow`, `Encoder`, `Decoder`) calls this first.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.window == 0 || self.window > MAX_WINDOW {
            return Err(ParamError::Window(self.window));
        }
        let soliton_ok = self.c.is_finite()
            && self.c > 0.0
            && self.delta.is_finite()
            && self.delta > 0.0
            && self.delta < 1.0;
        if !soliton_ok {
            return Err(ParamError::Soliton);
        }
        if self.peel_window < self.window || self.peel_window > 1 << 30 {
            return Err(ParamError::PeelWindow(self.peel_window));
        }
        if !(MIN_SYMBOL_LEN..=MAX_SYMBOL_LEN).contains(&self.symbol_len) {
            return Err(ParamError::SymbolLen(self.symbol_len));
        }
        // Edge indices share a u32 with a flag bit: (max_pending + 1) * k must stay below 2^31.
        let edges = self
            .max_pending
            .saturating_add(1)
            .saturating_mul(self.window);
        if self.max_pending == 0 || edges >= 1 << 31 || self.max_pending_per_sender == 0 {
            return Err(ParamError::MaxPending(self.max_pending));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_reference_values_and_valid() {
        let p = Params::default();
        assert_eq!(
            (p.window, p.peel_window, p.timeout_us),
            (50, 262_144, 500_000)
        );
        assert_eq!((p.c, p.delta), (0.03, 0.5));
        assert_eq!(p.validate(), Ok(()));
    }

    #[test]
    fn bad_parameters_are_named() {
        let ok = Params::default();
        let cases = [
            (
                Params {
                    window: 0,
                    ..ok.clone()
                },
                ParamError::Window(0),
            ),
            (
                Params {
                    c: f64::NAN,
                    ..ok.clone()
                },
                ParamError::Soliton,
            ),
            (
                Params {
                    delta: 1.0,
                    ..ok.clone()
                },
                ParamError::Soliton,
            ),
            (
                Params {
                    peel_window: 10,
                    ..ok.clone()
                },
                ParamError::PeelWindow(10),
            ),
            (
                Params {
                    symbol_len: 4,
                    ..ok.clone()
                },
                ParamError::SymbolLen(4),
            ),
            (
                Params {
                    max_pending: 0,
                    ..ok.clone()
                },
                ParamError::MaxPending(0),
            ),
            (
                Params {
                    max_pending: 1 << 30,
                    ..ok.clone()
                },
                ParamError::MaxPending(1 << 30),
            ),
        ];
        for (params, error) in cases {
            assert_eq!(params.validate(), Err(error));
        }
    }
}
