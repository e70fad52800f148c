//! A file a command will write, opened before the command does its work: a path that cannot be
//! written fails at once rather than after minutes of runs, a file that already exists keeps
//! its contents until the new ones are ready, and a command that fails leaves no empty file it
//! created behind.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, Write};
use std::path::PathBuf;

pub struct Output {
    path: String,
    file: File,
    /// Whether opening created the file (so that a failed command removes it).
    created: bool,
}

impl Output {
    /// Opens `path` (given as `flag`) for writing, creating it if missing, without truncating.
    pub fn open(path: &str, flag: &str) -> Result<Output, String> {
        let existed = std::path::Path::new(path).exists();
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| format!("{flag} {path}: cannot write there: {e}"))?;
        Ok(Output {
            path: path.to_string(),
            file,
            created: !existed,
        })
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's canonical path, to tell two names of one file apart from two files.
    pub fn canonical(&self) -> Option<PathBuf> {
        std::fs::canonicalize(&self.path).ok()
    }

    /// Replaces the file's contents by what `fill` writes (`/dev/stdout` and other streams
    /// take it as it comes).
    pub fn replace_with(
        mut self,
        fill: impl FnOnce(&mut BufWriter<&File>) -> std::io::Result<()>,
    ) -> Result<(), String> {
        let written = (|| {
            if self.file.metadata()?.is_file() {
                self.file.set_len(0)?;
                self.file.rewind()?;
            }
            let mut out = BufWriter::new(&self.file);
            fill(&mut out)?;
            out.flush()
        })();
        written.map_err(|e| format!("cannot write {}: {e}", self.path))
    }

    /// Leaves the file as it was: removes it if opening created it.
    pub fn discard(self) {
        if self.created {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens the files a command will write, each `(flag, path)` where the flag was given: all or
/// none (what was created is removed again). Refuses a path that is the `input` file the
/// command reads (`(what, path)`) or a file another flag names already.
pub fn open_all<const N: usize>(
    wanted: [(&str, Option<&str>); N],
    input: (&str, &str),
) -> Result<[Option<Output>; N], String> {
    let mut opened: [Option<Output>; N] = std::array::from_fn(|_| None);
    let mut failure = None;
    for (slot, (flag, path)) in opened.iter_mut().zip(wanted) {
        match path.map(|p| Output::open(p, flag)).transpose() {
            Ok(output) => *slot = output,
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let named = wanted
        .iter()
        .zip(&opened)
        .filter_map(|((flag, _), o)| Some((*flag, o.as_ref()?)));
    let failure = failure.or_else(|| same_file(input, named).err());
    match failure {
        None => Ok(opened),
        Some(e) => {
            opened.into_iter().flatten().for_each(Output::discard);
            Err(e)
        }
    }
}

/// Fails if an output is the input's file or another output's.
fn same_file<'a>(
    (what, input): (&str, &str),
    outputs: impl Iterator<Item = (&'a str, &'a Output)>,
) -> Result<(), String> {
    let mut seen: Vec<(&str, PathBuf)> = std::fs::canonicalize(input)
        .map(|p| vec![(what, p)])
        .unwrap_or_default();
    for (flag, output) in outputs {
        let Some(canonical) = output.canonical() else {
            continue;
        };
        if let Some((other, _)) = seen.iter().find(|(_, p)| *p == canonical) {
            return Err(format!(
                "{flag} {} is {other}: it would be written over",
                output.path()
            ));
        }
        seen.push((flag, canonical));
    }
    Ok(())
}
