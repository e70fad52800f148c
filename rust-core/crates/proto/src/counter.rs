//! What a protocol counts besides deliveries and bytes: rejections, retries, savings. Each
//! counter is a constant of the protocol that counts it (`<protocol>::counters`), named
//! `<protocol>.<what>`, so that reports, the page and the light node can say what it means
//! and in what unit. Hosts keep the counts by name: report keys are `Counter::name`.

use serde::Serialize;

/// One kind of thing a protocol counts.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Counter {
    /// `<protocol>.<what>` in snake case; the key in reports.
    pub name: &'static str,
    pub unit: Unit,
    /// One sentence: what is counted and why it matters.
    pub about: &'static str,
    /// The adversary effect this counter records, if it records one.
    pub effect: Option<Effect>,
}

/// What one unit of a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Transactions, or copies of them.
    Txs,
    /// Protocol messages, RPC entries or frames.
    Messages,
    /// Transaction or message ids in announcements and requests.
    Ids,
    /// Requests for one transaction each.
    Requests,
    /// Strokkur's coded packets.
    Codewords,
    /// Strokkur's decoded symbols.
    Symbols,
    /// Peers (links).
    Peers,
    /// Occurrences of a situation.
    Events,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Txs => "txs",
            Unit::Messages => "messages",
            Unit::Ids => "ids",
            Unit::Requests => "requests",
            Unit::Codewords => "codewords",
            Unit::Symbols => "symbols",
            Unit::Peers => "peers",
            Unit::Events => "events",
        }
    }
}

/// What an adversary did that a counter records (the page shades these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// A request went unanswered.
    Withheld,
    /// Data arrived that failed its checks.
    Corrupt,
}

impl Effect {
    pub fn name(self) -> &'static str {
        match self {
            Effect::Withheld => "withheld",
            Effect::Corrupt => "corrupt",
        }
    }
}

/// Checks a list of counters: unique names, all `<prefix>.<what>` in snake case, each
/// described. The error names the first offender.
pub fn check_counters(prefix: &str, counters: &[&Counter]) -> Result<(), String> {
    for (i, c) in counters.iter().enumerate() {
        let what = c
            .name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
            .ok_or_else(|| format!("{} does not start with {prefix}.", c.name))?;
        let snake = what
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if what.is_empty() || !snake {
            return Err(format!("{} is not <protocol>.<snake_case>", c.name));
        }
        if c.about.trim().is_empty() {
            return Err(format!("{} has no about", c.name));
        }
        if counters[..i].iter().any(|d| d.name == c.name) {
            return Err(format!("{} is listed twice", c.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn counter(name: &'static str, about: &'static str) -> Counter {
        Counter {
            name,
            unit: Unit::Events,
            about,
            effect: None,
        }
    }

    #[test]
    fn check_counters_refuses_bad_names_repeats_and_missing_abouts() {
        const A: Counter = counter("x.a_1", "Counts a.");
        const B: Counter = counter("x.b", "Counts b.");
        assert_eq!(check_counters("x", &[&A, &B]), Ok(()));
        assert!(check_counters("y", &[&A]).is_err());
        assert!(check_counters("x", &[&A, &B, &A]).is_err());
        for bad in ["x.", "x.Big", "x.a-b", "xa.b", "x_b"] {
            assert!(
                check_counters("x", &[&counter(bad, "Counts.")]).is_err(),
                "{bad}"
            );
        }
        assert!(check_counters("x", &[&counter("x.c", " ")]).is_err());
    }
}
