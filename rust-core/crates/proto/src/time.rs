//! Simulated or real time as integer microseconds. `Time` is an instant, `Dur` a span;
//! keeping them apart stops a duration being used as a deadline by mistake.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// An instant, in microseconds since the start of the run (or of the driver).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

/// A span of time in microseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dur(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const NEVER: Time = Time(u64::MAX);

    pub fn as_micros(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Saturating: a deadline past the end of time is "never".
    pub fn saturating_add(self, d: Dur) -> Time {
        Time(self.0.saturating_add(d.0))
    }
    /// Checked, for durations a peer may choose.
    pub fn checked_add(self, d: Dur) -> Option<Time> {
        self.0.checked_add(d.0).map(Time)
    }
    /// Time elapsed since `earlier`, zero if `earlier` is later.
    pub fn since(self, earlier: Time) -> Dur {
        Dur(self.0.saturating_sub(earlier.0))
    }
}

impl Dur {
    pub const ZERO: Dur = Dur(0);

    pub const fn from_micros(us: u64) -> Dur {
        Dur(us)
    }
    pub const fn from_millis(ms: u64) -> Dur {
        Dur(ms * 1_000)
    }
    pub const fn from_secs(s: u64) -> Dur {
        Dur(s * 1_000_000)
    }
    /// From fractional milliseconds, rounded to the microsecond; negative or NaN gives zero.
    pub fn from_millis_f64(ms: f64) -> Dur {
        if ms.is_nan() || ms <= 0.0 {
            Dur(0)
        } else {
            Dur((ms * 1_000.0).round().min(u64::MAX as f64) as u64)
        }
    }
    pub fn as_micros(self) -> u64 {
        self.0
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e3
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    pub fn saturating_mul(self, k: u64) -> Dur {
        Dur(self.0.saturating_mul(k))
    }
}

impl Add<Dur> for Time {
    type Output = Time;
    /// Saturating, so a huge timeout becomes "never" instead of wrapping into the past.
    fn add(self, d: Dur) -> Time {
        self.saturating_add(d)
    }
}

impl AddAssign<Dur> for Time {
    fn add_assign(&mut self, d: Dur) {
        *self = *self + d;
    }
}

impl Sub<Time> for Time {
    type Output = Dur;
    fn sub(self, earlier: Time) -> Dur {
        self.since(earlier)
    }
}

impl Add for Dur {
    type Output = Dur;
    fn add(self, o: Dur) -> Dur {
        Dur(self.0.saturating_add(o.0))
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.6}s", self.as_secs_f64())
    }
}

impl fmt::Display for Dur {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3}ms", self.as_millis_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_past_the_end_saturates_to_never() {
        assert_eq!(Time(u64::MAX - 1) + Dur(10), Time::NEVER);
        assert_eq!(Time(5).checked_add(Dur(u64::MAX)), None);
    }

    #[test]
    fn since_never_goes_negative() {
        assert_eq!(Time(3).since(Time(10)), Dur(0));
        assert_eq!(Time(10) - Time(3), Dur(7));
    }

    #[test]
    fn fractional_millis_round_and_clamp() {
        assert_eq!(Dur::from_millis_f64(1.2345), Dur(1235));
        assert_eq!(Dur::from_millis_f64(-3.0), Dur(0));
        assert_eq!(Dur::from_millis_f64(f64::NAN), Dur(0));
    }
}
